import type { Plugin } from 'vite';
export declare function shareTargetFallback(): Plugin;
