/**
 * The screens offer what the database allows: every row of the permission matrix that stands for a §6
 * action (the same rows tests/db/permission-matrix.test.ts runs against Postgres) gives each member the same
 * answer here.
 */
import { describe, expect, test } from 'vitest';
import type { Role } from '../domain/entities';
import { NAMES, PERMISSION_TABLE, type PermissionRow, type Who } from '../testing/permission-table';
import { albumAbilities, can, settingsSections, type AlbumAction } from './album-permissions';

const MEMBERS: Record<Extract<Who, 'O' | 'E' | 'C' | 'V'>, Role> = { O: 'owner', E: 'editor', C: 'contributor', V: 'viewer' };
const ACTIONS: AlbumAction[] = ['view', 'addItems', 'deleteItems', 'editItemMetadata', 'comment', 'editComment', 'deleteComment', 'manageShareLinks', 'manageMembers', 'editAlbum', 'deleteAlbum', 'leaveAlbum'];
/** §6 actions the database has no case for yet; each one listed here is a gap of the matrix. */
const NOT_IN_MATRIX: AlbumAction[] = [];

const rows: PermissionRow[] = [...PERMISSION_TABLE];

describe('the permissions the screens use match the database permission matrix', () => {
  test('each member gets, for every case of the matrix tied to a §6 action, the answer the database gives', () => {
    const disagreements: string[] = [];
    for (const row of rows) {
      if (!row.action) continue;
      for (const [who, role] of Object.entries(MEMBERS) as [Who, Role][]) {
        const ui = can(role, row.action, { own: row.ownedBy === who });
        const db = row.allowed.includes(who);
        if (ui !== db) disagreements.push(`${row.target} ${row.op} (${row.action}) as ${NAMES[who]}: the screens say ${ui}, the database ${db}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  test('every §6 action is held to at least one database case', () => {
    const covered = new Set(rows.map((r) => r.action));
    expect(ACTIONS.filter((a) => !covered.has(a) && !NOT_IN_MATRIX.includes(a))).toEqual([]);
    // An action that gains a case leaves the list of gaps.
    expect(NOT_IN_MATRIX.filter((a) => covered.has(a))).toEqual([]);
  });

  test('a contributor deletes and edits only their own items; the editor every item', () => {
    expect(can('contributor', 'deleteItems', { own: true })).toBe(true);
    expect(can('contributor', 'deleteItems', { own: false })).toBe(false);
    expect(can('contributor', 'editItemMetadata', { own: false })).toBe(false);
    expect(can('editor', 'deleteItems', { own: false })).toBe(true);
  });

  test('a link visitor views, adds and deletes their own only with guest upload on, and does nothing else', () => {
    expect(can('link-visitor', 'view')).toBe(true);
    expect(can('link-visitor', 'addItems')).toBe(false);
    expect(can('link-visitor', 'addItems', { guestUpload: true })).toBe(true);
    expect(can('link-visitor', 'deleteItems', { own: true, guestUpload: true })).toBe(true);
    expect(can('link-visitor', 'deleteItems', { own: false, guestUpload: true })).toBe(false);
    for (const action of ['comment', 'editItemMetadata', 'manageShareLinks', 'manageMembers', 'editAlbum', 'deleteAlbum', 'leaveAlbum'] as const) {
      expect(can('link-visitor', action, { own: true, guestUpload: true }), action).toBe(false);
    }
  });

  test('every member may leave, except the last owner', () => {
    expect(can('owner', 'leaveAlbum')).toBe(false);
    expect(can('owner', 'leaveAlbum', { lastOwner: false })).toBe(true);
    for (const role of ['editor', 'contributor', 'viewer'] as const) expect(can(role, 'leaveAlbum')).toBe(true);
  });

  test('a viewer is offered no change to the album; the owner every one', () => {
    expect(albumAbilities('viewer')).toEqual({ addItems: false, deleteSomeItems: false, editAlbum: false, deleteAlbum: false, manageMembers: false, manageShareLinks: false, transferOwnership: false, chooseLocation: false });
    expect(albumAbilities('contributor')).toMatchObject({ addItems: true, deleteSomeItems: true, editAlbum: false });
    expect(albumAbilities('editor')).toMatchObject({ editAlbum: true, manageShareLinks: true, deleteAlbum: false, manageMembers: false, chooseLocation: false });
    expect(Object.values(albumAbilities('owner')).every(Boolean)).toBe(true);
  });

  test('the settings screen shows each role its sections: the owner all but leaving, an editor the album and share links', () => {
    const shown = (role: Role) => Object.entries(settingsSections(role)).filter(([, on]) => on).map(([name]) => name);
    expect(shown('owner')).toEqual(['album', 'members', 'invitations', 'shareLinks', 'dangerZone']);
    expect(shown('editor')).toEqual(['album', 'members', 'shareLinks', 'leave']);
    expect(shown('contributor')).toEqual(['members', 'leave']);
    expect(shown('viewer')).toEqual(['members', 'leave']);
  });
});
