// `lds simulate`.
import type { Command } from 'commander';

export function registerSimulateCommand(_program: Command): void {}
