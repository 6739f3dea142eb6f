/** The committed JPEGs the raw files hold, by role (paths under tests/fixtures). */
export declare const JPEGS: Record<'large' | 'tall' | 'portrait' | 'medium' | 'heavy' | 'small', string>;
export type JpegRole = keyof typeof JPEGS;
/** The bytes of a committed JPEG, by its path under tests/fixtures. */
export declare function jpeg(name: string): Uint8Array;
export interface RawFixture {
  file: string;
  /** ExifTool's FileType. */
  fileType: string;
  /** The JPEG the largest usable preview is, or null when there is none. */
  preview: JpegRole | null;
  /** The tag (`Group1:Name`) under which ExifTool extracts it. */
  tag: string | null;
  /** The raw's orientation. */
  orientation: number;
  /** Other JPEGs ExifTool finds in the file, by tag. */
  others: Record<string, JpegRole>;
}
export declare const RAW_FIXTURES: RawFixture[];
/** Writes every file of RAW_FIXTURES into `outDir`; answers their paths. */
export declare function makeRawFixtures(outDir: string, options?: { rawBytes?: number }): string[];
