/** The ImageMagick `convert` the fixtures are made (and, in the tests, decoded) with. */
export declare const CONVERT: string;
/** The photograph most fixtures hold (640 × 427). */
export declare const PHOTO: string;
/** The other picture (240 × 160): second page, reduced-resolution image, orientation set. */
export declare const OTHER: string;
/** Writes the sideways orientation fixture as a TIFF (Orientation 6) into `outDir`; answers its path. */
export declare function makeSidewaysTiff(outDir: string): string;
/** Writes the TIFF fixtures into `outDir`; answers their paths. */
export declare function makeTiffFixtures(outDir: string): string[];
