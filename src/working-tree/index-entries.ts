import { open } from 'node:fs/promises';

/** How many entries a git index file holds (its header), or 0 when there is none. */
export async function indexEntries(path: string): Promise<number> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const header = Buffer.alloc(12);
    const { bytesRead } = await handle.read(header, 0, 12, 0);
    if (bytesRead < 12 || header.toString('latin1', 0, 4) !== 'DIRC') return 0;
    return header.readUInt32BE(8);
  } catch {
    return 0;
  } finally {
    await handle?.close();
  }
}
