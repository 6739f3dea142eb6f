/** Makes sure a command from a Debian package is there, installing the package when run as root. */
export declare function ensureDebianTool(command: string, probeArgs: string[], pkg: string): void;
