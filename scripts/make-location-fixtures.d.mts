export declare const PLACE: { latitude: number; longitude: number; altitude: number };
/** Writes the photographs with a place into `outDir`; answers their paths. */
export declare function makeLocationFixtures(outDir: string): string[];
/** Writes `compressed-place.png`, whose place is in a compressed XMP packet, into `outDir`; answers its path. */
export declare function makeCompressedPlacePng(outDir: string): string;
