import { describe, expect, it } from 'vitest';
import type { Member } from '../domain/entities';
import { uploaderName } from './uploader-credit';

const member = (userId: string, displayName: string): Member => ({ userId, displayName, avatarKey: null, role: 'contributor', addedBy: null, createdAt: '2026-01-01T00:00:00Z' });

describe('uploaderName', () => {
  it('names the member who added the item, someone no longer listed as "Someone who left"', () => {
    const members = [member('ana', 'Ana'), member('ben', 'Ben')];
    expect(uploaderName({ uploaderId: 'ben' }, members)).toBe('Ben');
    expect(uploaderName({ uploaderId: 'zoe' }, members)).toBe('Someone who left');
    expect(uploaderName({ uploaderId: 'ana' }, undefined)).toBeUndefined();
  });

  it('credits a share link\'s guest by the name they gave, whatever the member list says', () => {
    const members = [member('ana', 'Ana')];
    expect(uploaderName({ uploaderId: '', guestLabel: 'Ana' }, members)).toBe('Ana (guest)');
    expect(uploaderName({ uploaderId: '', guestLabel: 'Zoë' }, undefined)).toBe('Zoë (guest)');
  });
});
