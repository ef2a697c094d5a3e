/**
 * A zip archive written entry by entry to a file, as EPUB's container format asks: the entries' sizes
 * and CRCs are in their local headers (no data descriptors, no extra fields), so the first entry can be the
 * stored `mimetype` a reading system sniffs at byte 30. Text is deflated in memory; large media files are
 * stored, streamed from disk in two passes (CRC, then copy), so memory stays bounded by one block.
 */
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { deflateRawSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

function crcUpdate(crc: number, bytes: Uint8Array): number {
  let c = crc ^ -1;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

const MAX_ZIP32 = 0xffffffff;

interface Written {
  name: Buffer;
  crc: number;
  method: number;
  compressed: number;
  size: number;
  offset: number;
}

export class ZipWriter {
  private readonly entries: Written[] = [];
  private position = 0;

  private constructor(private readonly handle: FileHandle) {}

  static async create(file: string): Promise<ZipWriter> {
    return new ZipWriter(await open(file, 'w'));
  }

  private async write(bytes: Uint8Array): Promise<void> {
    await this.handle.write(bytes, 0, bytes.length, this.position);
    this.position += bytes.length;
    if (this.position > MAX_ZIP32)
      throw new Error('The book is larger than 4 GB, more than a zip without Zip64 holds.');
  }

  private localHeader(entry: Omit<Written, 'offset'>): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt16LE(0, 10);
    header.writeUInt16LE(0x21, 12); // 1980-01-01: reproducible
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.compressed, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(entry.name.length, 26);
    header.writeUInt16LE(0, 28);
    return Buffer.concat([header, entry.name]);
  }

  /** An entry from memory; `store` keeps it uncompressed (the `mimetype`, already compressed media). */
  async addBytes(name: string, data: Uint8Array | string, store = false): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const body = store ? bytes : deflateRawSync(bytes);
    const entry = {
      name: Buffer.from(name, 'utf8'),
      crc: crcUpdate(0, bytes),
      method: store ? 0 : 8,
      compressed: body.length,
      size: bytes.length,
    };
    const offset = this.position;
    await this.write(this.localHeader(entry));
    await this.write(body);
    this.entries.push({ ...entry, offset });
  }

  /** A file from disk, stored as it is (audio, which does not compress). */
  async addFile(name: string, file: string): Promise<void> {
    let crc = 0;
    let size = 0;
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      crc = crcUpdate(crc, chunk);
      size += chunk.length;
    }
    const entry = { name: Buffer.from(name, 'utf8'), crc, method: 0, compressed: size, size };
    const offset = this.position;
    await this.write(this.localHeader(entry));
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>)
      await this.write(chunk);
    this.entries.push({ ...entry, offset });
  }

  /** Writes the central directory and closes the file. */
  async close(): Promise<void> {
    try {
      const start = this.position;
      for (const entry of this.entries) {
        const header = Buffer.alloc(46);
        header.writeUInt32LE(0x02014b50, 0);
        header.writeUInt16LE(20, 4);
        header.writeUInt16LE(20, 6);
        header.writeUInt16LE(0x0800, 8);
        header.writeUInt16LE(entry.method, 10);
        header.writeUInt16LE(0, 12);
        header.writeUInt16LE(0x21, 14);
        header.writeUInt32LE(entry.crc, 16);
        header.writeUInt32LE(entry.compressed, 20);
        header.writeUInt32LE(entry.size, 24);
        header.writeUInt16LE(entry.name.length, 28);
        header.writeUInt32LE(entry.offset, 42);
        await this.write(Buffer.concat([header, entry.name]));
      }
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(this.entries.length, 8);
      end.writeUInt16LE(this.entries.length, 10);
      end.writeUInt32LE(this.position - start, 12);
      end.writeUInt32LE(start, 16);
      await this.write(end);
    } finally {
      await this.handle.close();
    }
  }

  /** Closes the file without finishing the archive (the caller removes it). */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}
