// The data an image upload sends: a raw disk image, gzip-compressed ("data must be gzip-compressed; the uncompressed
// content is a raw disk image"). Not zeros alone: a server processing the content may look for a partition table and a
// filesystem (to set a root password on deploy). An MBR partition table with one Linux partition (type 0x83) from
// sector 8, holding an empty ext2 filesystem of 120 KiB labelled "conformance", made once with
//   dd if=/dev/zero of=part.img bs=1024 count=120
//   E2FSPROGS_FAKE_TIME=1764547200 mke2fs -q -t ext2 -b 1024 -N 16 -L conformance -m 0 part.img
//   gzip -9 -n -c part.img | base64 -w0
import { gunzipSync, gzipSync } from 'node:zlib';

const EXT2_PARTITION =
  'H4sIAAAAAAACA+3ayUrDQBwH4CStiPsuopfe1eLRixRfQA8+gBQXcGvBBQQv9TV8Gp/DJ/AiXrzHaVOlVk/iUs33lX+agSlkhv6GSdMoAvJqPNRl+7waqi9U3NmhlNV4u9m4WzqIojTdeoxb/bJ25uVzQ+3GanhLQhVCHc1XRoeXN2s3C0trG9uHVzv12n799KRa29n7sbF2X0PzeoffjOtrlcIrzsn3aECU/qRmNovt3FfDMWm1gDxI00pHq5ECOdJvCiCvoo7735fK0/7nYT27AXo//kLrt4vvvr8tdbXzNv/A72lch8NKsfh+/YvfrH+fMWv9g55229z/rHy0/0miuY5+g1H2XKf5vGQk1GiosSh7LjQRajLUVKjpUDP2PwA9L2mt6XFSfj1PknI5W+vvC4PJcf3sfHG/flHbNVfw3wx15f+pkOUfyAl/+QH5B+QfkH9A/gH5B+QfkH9A/gH5B+QfAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAKCHPQN0FI1cAOABAA==';

const SECTOR = 512;
const FIRST_SECTOR = 8;

/** The raw disk image, gzip-compressed (about 1 KB) or, `compressed: false`, as it is (124 KiB). */
export function rawDiskImage({ compressed = true } = {}): Buffer {
  const partition = gunzipSync(Buffer.from(EXT2_PARTITION, 'base64'));
  const sectors = partition.length / SECTOR;
  const disk = Buffer.alloc((FIRST_SECTOR + sectors) * SECTOR);
  const entry = 446; // the first of the MBR's four partition entries
  disk.fill(0xff, entry + 1, entry + 4); // CHS start and end unused: addressed by LBA
  disk[entry + 1] = 0xfe;
  disk[entry + 4] = 0x83;
  disk.fill(0xff, entry + 5, entry + 8);
  disk[entry + 5] = 0xfe;
  disk.writeUInt32LE(FIRST_SECTOR, entry + 8);
  disk.writeUInt32LE(sectors, entry + 12);
  disk[510] = 0x55;
  disk[511] = 0xaa;
  partition.copy(disk, FIRST_SECTOR * SECTOR);
  return compressed ? gzipSync(disk) : disk;
}
