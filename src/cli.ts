// Entry point of the `lds` command (bin/lds.js loads its compiled form, dist/cli.js). The commands
// live in cli/.
import { fail } from './cli/database.js';
import { buildCli } from './cli/program.js';

buildCli().parseAsync(process.argv).catch(fail);
