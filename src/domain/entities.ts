/**
 * The entities of PRODUCT.md §3 as the app sees them: plain data that every port speaks in
 * (src/backend/ports.ts). No SDK type and no backend's own shape reaches past the adapters.
 */
export type Role = 'owner' | 'editor' | 'contributor' | 'viewer';
export type ItemKind = 'image' | 'video' | 'file';
/** `uploading`: row reserved, invisible to others. A trashed item is `ready` with `deletedAt` set. */
export type ItemStatus = 'uploading' | 'ready' | 'failed';
export type ItemNotice = 'image/undecodable' | 'image/too-large';

/**
 * What became of the original's location on upload, in an album that removes it: `removed`; `preview` when
 * it could not be removed and the person chose to upload the preview instead; `kept` for a video in a container
 * the remover does not walk (an MPEG program stream; WebM, MKV, AVI and MPEG transport streams before they were walked), uploaded as it was, and on items uploaded before originals that
 * could not be cleaned were stopped. Absent otherwise.
 */
export type ItemLocationNote = 'removed' | 'preview' | 'kept';

export interface Profile {
  id: string;
  displayName: string;
  avatarKey: string | null;
  createdAt: string;
}

export interface Album {
  id: string;
  ownerId: string;
  title: string;
  description: string;
  coverItemId: string | null;
  /** The thumbnail key of the cover (the chosen cover, else the newest ready image or video). */
  coverThumbKey: string | null;
  coverThumbhash: string | null;
  itemCount: number;
  bytesTotal: number;
  createdAt: string;
  updatedAt: string;
  /** The caller's role in this album. */
  role: Role;
  /** Originals keep their location as taken; false (the default) removes it in the browser before upload. */
  keepLocation: boolean;
}

export interface ItemMetadata {
  cameraMake?: string;
  cameraModel?: string;
  lens?: string;
  exposureTime?: number;
  fNumber?: number;
  iso?: number;
  focalLength?: number;
  /** XMP fields. */
  title?: string;
  description?: string;
  rating?: number;
  keywords?: string[];
  /**
   * Keywords with their place in the photographer's hierarchy, as Lightroom's `lr:hierarchicalSubject` holds them:
   * `Places|Portugal|Porto`, broadest first, `|` between levels. Each leaf is among `keywords`.
   */
  keywordPaths?: string[];
  label?: string;
  /** XMP dc:creator (the names, joined) and dc:rights: who made the photo and on what terms. */
  creator?: string;
  rights?: string;
  /** Why the item has no preview, when it is an image kept as a file. */
  notice?: ItemNotice;
  location?: ItemLocationNote;
  /** An animated picture the browser plays (an animated WebP): the viewer shows the original, the grid its first frame. */
  animated?: true;
  /**
   * An XMP sidecar came with the original and is kept beside it in the bucket, with fields Shoebox does not know
   * ([Note: Sidecars beside originals]): downloads with sidecars start from it.
   */
  sidecar?: true;
  /**
   * Minutes east of UTC of the clock that gave `takenAt` (EXIF OffsetTimeOriginal, or an XMP date's zone: +02:00
   * is 120), so the date taken shows as it was where the photo was taken. Absent: the file did not say.
   */
  takenOffset?: number;
}

export interface Item {
  id: string;
  albumId: string;
  uploaderId: string;
  /** The name a share link's guest gave when a guest added it (then there is no uploader). */
  guestLabel?: string | null;
  kind: ItemKind;
  status: ItemStatus;
  filename: string;
  mime: string;
  bytes: number;
  sha256: string | null;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  takenAt: string | null;
  originalKey: string;
  /**
   * `gzip`: the original is stored gzip-compressed and every reader inflates it; `bytes` and `sha256` stay
   * the original's ([Note: Text files are stored gzip-compressed] in src/media/text-compression.ts). Absent:
   * the object holds the original's own bytes.
   */
  storedEncoding?: 'gzip';
  /** The stored object's size, when it differs from `bytes` (stored compressed). */
  storedBytes?: number;
  previewKey: string | null;
  thumbKey: string | null;
  /** base64 of a thumbhash (< 40 bytes). */
  thumbhash: string | null;
  metadata: ItemMetadata;
  createdAt: string;
  deletedAt: string | null;
  /** When its details were last edited by a member (null or absent: never). */
  editedAt?: string | null;
}

export type ActivityVerb =
  | 'added_items'
  | 'created_album'
  | 'commented'
  | 'joined'
  | 'trashed_items'
  | 'restored_items'
  // Membership: the actor left, removed someone, changed someone's role, or handed the album over.
  | 'left'
  | 'removed_member'
  | 'changed_role'
  | 'transferred_ownership';

/** One line of an album's activity; the database merges a person's lines of one kind within 10 minutes. */
export interface Activity {
  id: string;
  albumId: string;
  albumTitle: string;
  /** '' once their account is gone. */
  actorId: string;
  /** null when the caller can no longer see who it was: they left (every album the two shared), or are gone. */
  actorName: string | null;
  verb: ActivityVerb;
  /**
   * What the line is about, by verb: `commented` the item commented on; `added_items` the first item added;
   * `changed_role`, `removed_member`, `transferred_ownership` the member acted on; null for the others.
   */
  subjectId: string | null;
  /**
   * For `commented`, the kind of that item when the caller can still see it; for `added_items`, the kind every
   * item the line counts has ("12 photos"), null when they are mixed or not known; else null.
   */
  subjectKind: ItemKind | null;
  count: number;
  createdAt: string;
}

/** A member of an album, as its member list shows them. */
export interface Member {
  userId: string;
  displayName: string;
  avatarKey: string | null;
  role: Role;
  /** Who let them in (the inviter, or the owner themselves); null once that account is gone. */
  addedBy: string | null;
  /** That person's name, when the caller can still see them (a fellow member). */
  addedByName?: string;
  createdAt: string;
}

/** A role an invitation grants: never `owner` (the album changes hands only by a transfer). */
export type InviteRole = Exclude<Role, 'owner'>;

/** An invitation as its album's owner sees it. The token itself is never stored, so it is not here. */
export interface Invite {
  id: string;
  albumId: string;
  role: InviteRole;
  /** Bound to this address (an e-mail invitation), else anyone holding the link. */
  email: string | null;
  expiresAt: string;
  maxUses: number | null;
  useCount: number;
  createdBy: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface InviteInput {
  role: InviteRole;
  /** Default 7; at most 365. */
  expiresInDays?: number;
  /** How many people may join through it; unlimited when left out. */
  maxUses?: number;
}

/** What the invite page shows before joining: nothing that names the album's id or its members. */
export interface InvitePreview {
  albumTitle: string;
  coverThumbKey: string | null;
  /** The cover's placeholder: the thumbnail itself is for members only, and the holder is not one yet. */
  coverThumbhash: string | null;
  inviterName: string;
}

/** A comment on an item (PRODUCT.md §3). A deleted comment is gone, so there is no deleted flag. */
export interface Comment {
  id: string;
  itemId: string;
  albumId: string;
  /** null once the author's account is gone; their words stay. */
  authorId: string | null;
  /** The author's name as it is now ('' when unknown). */
  authorName: string;
  body: string;
  createdAt: string;
  /** When the body was last changed, stamped by the backend. */
  editedAt: string | null;
}

/** What a tile shows of an item's conversation: counts, and whether the caller gave it a heart. */
export interface ItemSocial {
  itemId: string;
  commentCount: number;
  favoriteCount: number;
  /** The caller's own heart, never another person's. */
  myFavorite: boolean;
}

/** Someone who gave an item a heart. */
export interface Favoriter {
  userId: string;
  displayName: string;
  createdAt: string;
}

/**
 * A public share link as its album's owners and editors see it (PRODUCT.md §3). Neither the token nor the
 * password's hash is ever here: the token is shown once, when the link is made, and only its hash is kept.
 */
export interface ShareLink {
  id: string;
  albumId: string;
  label: string | null;
  hasPassword: boolean;
  /** null: the link never expires (only when that was chosen). */
  expiresAt: string | null;
  allowDownload: boolean;
  allowGuestUpload: boolean;
  /** null: no view limit. A view is one visit per browser per day. */
  maxViews: number | null;
  viewCount: number;
  /** Per guest, when guest uploads are on; null: no limit of the link's own. */
  guestMaxFiles: number | null;
  guestMaxBytes: number | null;
  lastOpenedAt: string | null;
  createdBy: string | null;
  createdAt: string;
  revokedAt: string | null;
  /** How many items guests added through this link; null where the backend does not tell. */
  guestItemCount: number | null;
}

/** What a new share link is made with. */
export interface ShareLinkInput {
  label?: string | null;
  /** 8–128 characters; hashed by the server, never stored as given. */
  password?: string;
  /** When it stops working: 1 hour to 1 year ahead; null never, only when chosen; left out, 30 days. */
  expiresAt?: string | null;
  allowDownload: boolean;
  allowGuestUpload: boolean;
  maxViews?: number | null;
  guestMaxFiles?: number | null;
  guestMaxBytes?: number | null;
}

/** A browser signed in to this account (PRODUCT.md §3 device), as /account lists it. */
export interface Device {
  /** Made once per browser and kept there. */
  id: string;
  label: string;
  kind: 'desktop' | 'mobile' | 'tablet';
  /** Running as the installed app (display-mode standalone) when last seen. */
  installed: boolean;
  lastSeenAt: string;
  /** The device asking. */
  current: boolean;
}

export type DeviceInput = Pick<Device, 'id' | 'label' | 'kind' | 'installed'>;

/** Someone looking at an album now (presence). */
export interface PresenceViewer {
  userId: string;
  displayName: string;
  since: string;
}
