import type { Plugin } from 'vite';

export function exifReaderModules(packageJsonPath: string): Record<string, boolean | string[]>;
export function exifReaderBuild(packageJsonPath: string): Plugin;
