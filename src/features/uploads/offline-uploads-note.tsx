/** The words the queue uses while it waits for the network, the same wherever uploads are shown. */
export const OFFLINE_UPLOADS = 'Offline — uploads will continue when you’re back online';

/** The uploads screen's line while the queue waits for the network. */
export function OfflineUploadsNote() {
  return (
    <p className="upload-offline" role="status">
      {OFFLINE_UPLOADS}
    </p>
  );
}
