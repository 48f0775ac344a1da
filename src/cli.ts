// Entry point of the `lds` command (bin/lds.js loads its compiled form, dist/cli.js). The commands
// live in cli/; withDatabase is re-exported here for the ingest commands that still import it from
// this path.
import { fail } from './cli/database.js';
import { buildCli } from './cli/program.js';

export { withDatabase } from './cli/database.js';

buildCli().parseAsync(process.argv).catch(fail);
