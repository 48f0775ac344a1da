// `lds import ...` and `lds topics ...`.
import type { Command } from 'commander';

export function registerIngestCommands(_program: Command): void {}
