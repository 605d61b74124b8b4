/** The `code` of a Node system error (ENOENT, EEXIST, EFBIG…), or undefined for any other value. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}
