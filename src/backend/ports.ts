/**
 * The ports: the only door between the app and a backend. Every adapter (local, supabase, s3) implements
 * these interfaces, returns plain data (no SDK types) and throws only `AppError` (or an AbortError when the
 * caller's signal fired). Each port has one contract suite that every adapter passes.
 */
export type { AppError, ErrorCode } from '../lib/app-error';
import type { Role, Profile, Album, Item, Activity, Member, Invite, InviteInput, InvitePreview, Comment, ItemSocial, Favoriter, ShareLink, ShareLinkInput, Device, DeviceInput, PresenceViewer } from '../domain/entities';
import type { AlbumInput, AlbumPatch, FinalizeItemInput, ItemEdit, ReserveItemInput } from '../domain/inputs';
import type { ItemCountQuery, ItemQuery, MonthCount, Page, SearchQuery } from '../domain/queries';

export interface CallOptions {
  signal?: AbortSignal;
}

export type Unsubscribe = () => void;

// ---------------------------------------------------------------------------------------------------------
// The ports.

export interface Session {
  userId: string;
  email: string | null;
  profile: Profile;
  expiresAt: number | null;
}

export type SessionCheck = 'live' | 'ended' | 'unknown';

export type SignInMethod = 'password' | 'magic-link' | 'oauth';

export interface AuthCapabilities {
  /** The local backend has one built-in profile and no sign-in screens. */
  requiresSignIn: boolean;
  methods: SignInMethod[];
  oauthProviders: string[];
}

export interface AuthPort {
  capabilities(): AuthCapabilities;
  getSession(opts?: CallOptions): Promise<Session | null>;
  /** Called with the current session at once, then on every change (sign-in, refresh, sign-out). */
  onSessionChange(cb: (session: Session | null) => void): Unsubscribe;
  /**
   * Asks the server whether this browser's session still stands (another device may have signed it out).
   * `ended`: it does not, and this browser is now signed out (watchers are told); `unknown`: no clear answer
   * (offline, a server error), and nothing changes; `live`: it stands, or there is no server to ask.
   */
  checkSession(opts?: CallOptions): Promise<SessionCheck>;
  signInWithPassword(email: string, password: string): Promise<Session>;
  signUp(email: string, password: string, displayName: string): Promise<Session | null>;
  sendMagicLink(email: string, redirectTo: string): Promise<void>;
  signInWithOAuth(provider: string, redirectTo: string): Promise<void>;
  /** `others`: every other session of this user; `global`: all, this one included. */
  signOut(scope?: 'local' | 'others' | 'global'): Promise<void>;
  updateProfile(patch: { displayName?: string }): Promise<Profile>;
}

// The data ports, one per domain. A member's backend (local, Supabase) implements them all but share links where
// albums cannot be shared by link; a link's visitor implements what showing the album takes (AlbumBackend) and a
// link's guest what adding files takes (UploadBackend). A screen learns what a backend lacks from the port
// being absent, never from a refusal.

export interface AlbumsPort {
  listAlbums(opts?: CallOptions): Promise<Album[]>;
  /** Throws `album/not-found` for an album that does not exist or that the caller is not a member of. */
  getAlbum(albumId: string, opts?: CallOptions): Promise<Album>;
  createAlbum(input: AlbumInput, opts?: CallOptions): Promise<Album>;
  updateAlbum(albumId: string, patch: AlbumPatch, opts?: CallOptions): Promise<Album>;
  deleteAlbum(albumId: string, opts?: CallOptions): Promise<void>;
}

/** Reading an album's items. */
export interface ItemsPort {
  listItems(albumId: string, query: ItemQuery, opts?: CallOptions): Promise<Page<Item>>;
  countItemsByMonth(albumId: string, query: ItemCountQuery, opts?: CallOptions): Promise<MonthCount[]>;
  getItem(albumId: string, itemId: string, opts?: CallOptions): Promise<Item>;
}

/**
 * Finding items across the caller's albums, or within one (PRODUCT.md §2 `/search` and the album's search).
 * Sees what listItems sees: ready items not in the trash of albums the caller is a member of. `validation/invalid`
 * for a criterion out of its bounds (details.field names it); `album/not-found` for an album the caller is no
 * member of.
 */
export interface SearchPort {
  searchItems(query: SearchQuery, opts?: CallOptions): Promise<Page<Item>>;
}

/** Adding items (reserve, finalize, fail), the trash, and others' unfinished uploads. */
export interface ItemWritesPort {
  /** Reserves rows in `uploading` state (idempotent on `id`). Returns them with their object keys. */
  reserveItems(albumId: string, inputs: ReserveItemInput[], opts?: CallOptions): Promise<Item[]>;
  /** Marks an uploaded item `ready` with what the pipeline learnt; counters and activity follow. */
  finalizeItem(albumId: string, itemId: string, input: FinalizeItemInput, opts?: CallOptions): Promise<Item>;
  /** Marks a reserved item `failed` (visible only to its uploader). */
  failItem(albumId: string, itemId: string, opts?: CallOptions): Promise<void>;
  trashItems(albumId: string, itemIds: string[], opts?: CallOptions): Promise<void>;
  restoreItems(albumId: string, itemIds: string[], opts?: CallOptions): Promise<void>;
  /**
   * Edits the details of 1–10,000 ready items (PRODUCT.md §6: the owner and editors any item, a contributor their own,
   * else `album/forbidden`; `item/not-found` for an id not in the album or in its trash; `validation/invalid` for an edit that breaks
   * a bound). Each item gets the edit applied to what it holds now ([Note: Edits merge into what an item holds] in
   * lib/item-edit.ts) and its `editedAt` stamped; returns the items as they are now.
   */
  editItems(albumId: string, itemIds: string[], edit: ItemEdit, opts?: CallOptions): Promise<Item[]>;
  /** Owner only: how many uploads other members (or former members) started in this album and never finished. */
  countPendingItems(albumId: string, opts?: CallOptions): Promise<number>;
  /** Owner only: clears those uploads, their bytes too; the owner's own stay. Returns how many were cleared. */
  clearPendingItems(albumId: string, opts?: CallOptions): Promise<number>;
}

export interface ActivityPort {
  /** The newest lines of activity across the caller's albums, newest first. */
  listActivity(limit: number, opts?: CallOptions): Promise<Activity[]>;
  /**
   * For each of the caller's albums with something unread, how many lines of activity by others came since they
   * last opened it (since joining, if never), counted up to 100 ("99+"). Albums with none may be left out.
   * Without `capabilities.sharing.members` (the local backend) one person does everything, so nothing is ever
   * unread: always {}.
   */
  unreadCounts(opts?: CallOptions): Promise<Record<string, number>>;
  /** The caller has opened the album now: its unread count starts again from 0. `album/not-found` for a non-member. */
  markAlbumSeen(albumId: string, opts?: CallOptions): Promise<void>;
}

// Members and invitations (PRODUCT.md §6). [Note: Members without sharing]: with
// `capabilities.sharing.members === false` (the local backend) an album has exactly one member, its owner:
// listMembers shows them, listInvites is empty, and every call that needs another person is refused with
// `album/forbidden` (setMemberRole, removeMember, transferOwnership, createInvite, and leaveAlbum, since the
// one member is the owner); an album that does not exist is `album/not-found` first. No invitation exists
// on such a backend: invitePreview and acceptInvite answer `invite/not-found`, revokeInvite
// `album/not-found` (as the server answers an id that is no invitation).
export interface MembersPort {
  /** The album's members, the owner first, then by when they joined. */
  listMembers(albumId: string, opts?: CallOptions): Promise<Member[]>;
  /** Owner only; `owner` as the new role hands the album over, as transferOwnership does. */
  setMemberRole(albumId: string, userId: string, role: Role, opts?: CallOptions): Promise<void>;
  /** Owner only for others; removing oneself is leaving with one's items kept. */
  removeMember(albumId: string, userId: string, opts?: CallOptions): Promise<void>;
  /** Owner only, to another member; the old owner becomes an editor. */
  transferOwnership(albumId: string, userId: string, opts?: CallOptions): Promise<void>;
  /** Anyone but the owner (`album/forbidden`). `keepItems` false sends the items they added to the trash. */
  leaveAlbum(albumId: string, choice: { keepItems: boolean }, opts?: CallOptions): Promise<void>;
  /** Owner only. The token is in the answer once, never again: only its hash is kept. */
  createInvite(albumId: string, input: InviteInput, opts?: CallOptions): Promise<{ invite: Invite; token: string }>;
  /** The owner's pending invitations (not revoked, expired or used up), newest first; [] for other members. */
  listInvites(albumId: string, opts?: CallOptions): Promise<Invite[]>;
  /** Owner only; revoking twice keeps the first time. */
  revokeInvite(inviteId: string, opts?: CallOptions): Promise<void>;
  /** For a signed-in holder of a valid token; `invite/not-found|expired|revoked|used-up` otherwise. */
  invitePreview(token: string, opts?: CallOptions): Promise<InvitePreview>;
  /** Joins the album (or keeps a higher role already held) and returns its id; the same codes as invitePreview. */
  acceptInvite(token: string, opts?: CallOptions): Promise<string>;
}

// Comments and favourites (PRODUCT.md §6: every member, viewers too). An album the caller does not belong
// to is `album/not-found`; an item not in the album is `item/not-found`.
export interface SocialPort {
  /** The item's comments, oldest first. */
  listComments(albumId: string, itemId: string, opts?: CallOptions): Promise<Comment[]>;
  /** 1–2,000 characters once trimmed (`validation/invalid` with field `comment`); stored trimmed. */
  addComment(albumId: string, itemId: string, body: string, opts?: CallOptions): Promise<Comment>;
  /** The author only (`album/forbidden` for anyone else); the backend stamps `editedAt`. */
  editComment(albumId: string, commentId: string, body: string, opts?: CallOptions): Promise<Comment>;
  /** The author, and the owner and editors for any comment (`album/forbidden` otherwise); a gone comment is no error. */
  deleteComment(albumId: string, commentId: string, opts?: CallOptions): Promise<void>;
  /** Gives or takes back the caller's own heart; idempotent. */
  setFavorite(albumId: string, itemId: string, on: boolean, opts?: CallOptions): Promise<void>;
  /** Who gave the item a heart, the earliest first. */
  listFavoriters(albumId: string, itemId: string, opts?: CallOptions): Promise<Favoriter[]>;
  /** Counts and the caller's own heart for a page of tiles (at most 1,000 ids), in one call; unseen items left out. */
  itemSocial(albumId: string, itemIds: string[], opts?: CallOptions): Promise<ItemSocial[]>;
}

// Share links (PRODUCT.md §6: the owner and editors). A backend whose albums cannot be shared by link has no such
// port; an album that does not exist is `album/not-found` first.
export interface ShareLinksPort {
  /** Every link of the album, revoked and expired ones too, newest first; [] for members who may not manage them. */
  listShareLinks(albumId: string, opts?: CallOptions): Promise<ShareLink[]>;
  /** The token is in the answer once, never again: only its hash is kept. Input is checked before anything is sent. */
  createShareLink(albumId: string, input: ShareLinkInput, opts?: CallOptions): Promise<{ link: ShareLink; token: string }>;
  /** Turns the link off at once; revoking twice keeps the first time. `album/not-found` for an id the caller cannot see. */
  revokeShareLink(linkId: string, opts?: CallOptions): Promise<void>;
}

// Signed-in devices (/account). Without sign-in (the local backend) there is one device, this one, listed
// once touched; signing devices out has nothing to do there.
export interface DevicesPort {
  /** The caller's devices still signed in, the most recently seen first; never another person's. */
  listDevices(opts?: CallOptions): Promise<Device[]>;
  /** This browser is in use: made or brought up to date, seen now. Label 1–120 clean characters (`validation/invalid`). */
  touchDevice(input: DeviceInput, opts?: CallOptions): Promise<void>;
  /** Signs one of the caller's devices out (its session ends; its next refresh fails). An unknown id changes nothing. */
  signOutDevice(deviceId: string, opts?: CallOptions): Promise<void>;
  /** Signs out every device of the caller but this one. */
  signOutOtherDevices(opts?: CallOptions): Promise<void>;
}

export type ChangeOp = 'insert' | 'update' | 'delete';

/**
 * An album's own row as a change carries it. `cover`: the cover's thumbnail, when the change carries it (the
 * local backend's does; the database's row names only the cover item).
 */
export interface AlbumChange {
  title: string;
  description: string;
  coverItemId: string | null;
  cover?: { thumbKey: string | null; thumbhash: string | null };
  itemCount: number;
  bytesTotal: number;
  updatedAt: string;
}

/** A membership as a change carries it: `role` null for a delete (the row carries only its key). */
export interface MemberChange {
  userId: string;
  role: Role | null;
}

/** A comment as a change carries it, without the author's name (the app knows its members' names). */
export type CommentChange = Omit<Comment, 'id' | 'albumId' | 'authorName'>;

/** A heart as a change carries it: `createdAt` null for a delete (the row carries only its key). */
export interface FavoriteChange {
  itemId: string;
  userId: string;
  createdAt: string | null;
}

interface ChangeOf<E extends string, R> {
  entity: E;
  op: ChangeOp;
  albumId: string;
  /** The row's key: an item's or comment's id, the album's id, `albumId:userId` (member), `itemId:userId` (heart). */
  id: string;
  /**
   * The row after the change (before it, for a delete), parsed by the adapter. null when the change carries only
   * the key (a delete of an item or comment; an album named only because many of its items changed) or a row
   * the app cannot read: whoever applies it then reads the data again instead of guessing.
   */
  row: R | null;
}

/** A change to a row of an album, one type per entity. */
export type ChangeEvent =
  | ChangeOf<'album', AlbumChange>
  | ChangeOf<'item', Item>
  | ChangeOf<'album_member', MemberChange>
  | ChangeOf<'comment', CommentChange>
  | ChangeOf<'favorite', FavoriteChange>;

export type ChangeEntity = ChangeEvent['entity'];

/** The changes to one kind of row. */
export type ChangeOfEntity<E extends ChangeEntity> = Extract<ChangeEvent, { entity: E }>;

export interface BroadcastMessage {
  type: 'upload-progress';
  userId: string;
  payload: Record<string, unknown>;
}

export interface RealtimeHandlers {
  /**
   * The subscription is live: changes made from now on are delivered. Called once it is, and again after each
   * reconnection. `mayHaveMissed`: changes made before this moment (while connecting, or while the connection
   * was down) were not delivered, so whoever shows the album's data should read it again.
   */
  onJoined?: (info: { mayHaveMissed: boolean }) => void;
  onChange?: (ev: ChangeEvent) => void;
  onPresence?: (viewers: PresenceViewer[]) => void;
  onBroadcast?: (msg: BroadcastMessage) => void;
}

export interface RealtimePort {
  /** `albumId` null: changes to any album the user can see (the albums screen). */
  subscribe(albumId: string | null, handlers: RealtimeHandlers): Unsubscribe;
  broadcast(albumId: string, msg: BroadcastMessage): void;
}

export interface FunctionsPort {
  invoke<T = unknown>(name: string, body: unknown, opts?: CallOptions): Promise<T>;
}

/**
 * What a files adapter persists as it goes, so an interrupted upload resumes where it was.
 * See [Note: Resuming multipart uploads] in src/upload/.
 */
export interface UploadCheckpoint {
  uploadId?: string;
  /** Confirmed parts: number, size and ETag. The local record is the source of truth on resume. */
  parts?: { partNumber: number; size: number; etag: string }[];
  partSize?: number;
}

export interface UploadRequest {
  key: string;
  blob: Blob;
  contentType: string;
  /** Shown in `Content-Disposition` of downloads; never used in the key. */
  filename?: string;
  /** The blob's MD5 (base64) when the caller has it already: a single PUT sends it as `Content-MD5` without reading the blob again. */
  contentMd5?: string;
  checkpoint?: UploadCheckpoint;
}

export interface UploadOptions extends CallOptions {
  /** Total bytes of this object confirmed sent so far. */
  onProgress?: (sentBytes: number) => void;
  /** Called after every confirmed step; the caller persists it with the task. */
  onCheckpoint?: (checkpoint: UploadCheckpoint) => void;
  /**
   * Every request of this upload under way failed for a moment and waits to be tried again by the adapter: the
   * soonest at `at` (ms since the epoch); null once one goes again. Adapters that do not retry never call it.
   */
  onRetry?: (at: number | null) => void;
}

export interface UrlOptions extends CallOptions {
  expiresIn?: number;
  /** Serve as an attachment with this filename (`Content-Disposition`). */
  downloadAs?: string;
}

export interface FilesPort {
  upload(req: UploadRequest, opts?: UploadOptions): Promise<{ bytes: number }>;
  /** One call for many objects (a page of thumbnails). Keys that cannot be read are left out of the map. */
  urls(keys: string[], opts?: UrlOptions): Promise<Map<string, string>>;
  /** The bytes of one object (downloads, ZIP). */
  read(key: string, opts?: CallOptions): Promise<Blob>;
  remove(keys: string[], opts?: CallOptions): Promise<void>;
  /** Cancels an unfinished upload and frees what the bucket holds for it. */
  abortUpload(key: string, checkpoint: UploadCheckpoint | undefined, opts?: CallOptions): Promise<void>;
}

/**
 * What a backend offers, declared by its adapter, so that code which differs by backend asks what it means to
 * the app, never which backend it is.
 */
export interface BackendCapabilities {
  storage: {
    /**
     * Albums are kept in this browser's own storage: nothing leaves the device, clearing the site's data
     * deletes them, and asking the browser to persist that storage is worth offering.
     */
    onDevice: boolean;
    /**
     * The bucket keeps an XMP sidecar beside each original, written on upload and after edits ([Note: Sidecars
     * beside originals] in sidecar-writer.ts). Not for a link's visitor; a guest's upload writes the one its photo
     * came with.
     */
    sidecars: boolean;
  };
  network: {
    /** The ports talk to a server: while offline, work that needs it waits for `online` instead of failing. */
    required: boolean;
  };
  sharing: {
    /**
     * Albums can have other members (invitations, roles, uploads by others). Without it one profile owns every
     * row, so screens skip what only others could cause (for instance others' unfinished uploads).
     */
    members: boolean;
  };
}

/**
 * What showing an album takes, and all a link's visitor has: the album, its items and their files. The grid,
 * the viewer and downloads ask no more than this, so they run for members and visitors alike; what only
 * members have is there when the port is (`social`, `members`, `realtime`).
 */
export interface AlbumBackend {
  capabilities: BackendCapabilities;
  functions: FunctionsPort;
  files: Pick<FilesPort, 'urls' | 'read'>;
  albums: Pick<AlbumsPort, 'getAlbum'>;
  items: Pick<ItemsPort, 'listItems' | 'countItemsByMonth' | 'getItem'>;
  /** Who the members are, for credits; a visitor is told only the names of those who added what it sees. */
  members?: Pick<MembersPort, 'listMembers'>;
  social?: SocialPort;
  itemWrites?: ItemWritesPort;
  realtime?: RealtimePort;
  /** Absent for a link's visitor, who sees the album as it is. */
  search?: SearchPort;
}

/** A member's backend (local, Supabase): every domain. */
export interface Backend extends AlbumBackend {
  auth: AuthPort;
  files: FilesPort;
  items: ItemsPort;
  realtime: RealtimePort;
  albums: AlbumsPort;
  itemWrites: ItemWritesPort;
  activity: ActivityPort;
  members: MembersPort;
  social: SocialPort;
  devices: DevicesPort;
  search: SearchPort;
  /** Absent where albums cannot be shared by link (the local backend: nothing leaves the device). */
  shareLinks?: ShareLinksPort;
}

/** What the upload engine takes: adding files and, where the backend can say, whether the album keeps locations. */
export interface UploadBackend {
  capabilities: Pick<BackendCapabilities, 'network' | 'storage'>;
  files: FilesPort;
  items: Pick<ItemsPort, 'getItem'>;
  itemWrites: Pick<ItemWritesPort, 'reserveItems' | 'finalizeItem' | 'failItem'>;
  /** Absent for a link's guest, who cannot read the album: locations are then removed. */
  albums?: Pick<AlbumsPort, 'getAlbum'>;
}

/** Object keys in the bucket (PRODUCT.md §3). Never built from user-supplied names. */
export const objectKeys = {
  original: (albumId: string, itemId: string) => `albums/${albumId}/${itemId}/original`,
  preview: (albumId: string, itemId: string) => `albums/${albumId}/${itemId}/preview.webp`,
  thumb: (albumId: string, itemId: string) => `albums/${albumId}/${itemId}/thumb.webp`,
  poster: (albumId: string, itemId: string) => `albums/${albumId}/${itemId}/poster.webp`,
  /** The item's XMP sidecar ([Note: Sidecars beside originals] in sidecar-writer.ts). */
  sidecar: (albumId: string, itemId: string) => `albums/${albumId}/${itemId}/original.xmp`,
};

