#!/usr/bin/python3
"""vmlinux.py BZIMAGE OUT: the kernel ELF inside a Debian bzImage, for qemu's PVH entry.

Debian compresses its kernel with XZ; booted as is, the guest spends seconds of emulated CPU time
unpacking it. qemu boots an uncompressed ELF vmlinux directly (PVH note), so the suite unpacks once:
the first XZ stream in the image that holds an ELF file is the kernel.
"""
import lzma
import sys

XZ_MAGIC = b'\xfd7zXZ\x00'


def kernel_elf(image: bytes) -> bytes:
    offset = image.find(XZ_MAGIC)
    while offset >= 0:
        try:
            unpacked = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(image[offset:])
            if unpacked.startswith(b'\x7fELF'):
                return unpacked
        except lzma.LZMAError:
            pass
        offset = image.find(XZ_MAGIC, offset + 1)
    raise SystemExit(f'vmlinux.py: no XZ-compressed ELF in {sys.argv[1]}')


if __name__ == '__main__':
    with open(sys.argv[1], 'rb') as source:
        elf = kernel_elf(source.read())
    with open(sys.argv[2], 'wb') as target:
        target.write(elf)
