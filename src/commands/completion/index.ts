import type { Command } from 'commander';
import type { App } from '../define.js';

export function registerCompletion(_program: Command, _app: App): void {}
