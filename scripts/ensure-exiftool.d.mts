/** Installs ExifTool from Debian's packages when it is missing (as root), else throws saying how. */
export declare const ensureExiftool: () => void;
