import type { Plugin } from 'vite';

export function exifReaderModules(configPath: string): Record<string, boolean | string[]>;
export function exifReaderBuild(configPath: string): Plugin;
