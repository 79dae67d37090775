/** Reading and changing a JSON body at a path of keys, without changing the value given. */

export const getAt = (obj: unknown, path: string[]): unknown =>
  path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);

/** A copy with `value` at `path` (objects made on the way where there are none). */
export const setAt = (obj: unknown, path: string[], value: unknown): unknown => {
  if (path.length === 0) return value;
  const base = obj && typeof obj === 'object' && !Array.isArray(obj) ? { ...(obj as Record<string, unknown>) } : {};
  base[path[0]!] = setAt(base[path[0]!], path.slice(1), value);
  return base;
};

/** A copy without the key at `path` (anything but an object is left as it is). */
export const dropAt = (obj: unknown, path: string[]): unknown => {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return obj;
  const base = { ...(obj as Record<string, unknown>) };
  if (path.length === 1) delete base[path[0]!];
  else base[path[0]!] = dropAt(base[path[0]!], path.slice(1));
  return base;
};
