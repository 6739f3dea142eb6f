export declare const PLACE: { latitude: number; longitude: number; altitude: number };
/** Writes the photographs with a place into `outDir`; answers their paths. */
export declare function makeLocationFixtures(outDir: string): string[];
