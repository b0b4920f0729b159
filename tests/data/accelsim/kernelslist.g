MemcpyHtoD,0x00007f2a10000000,65536
kernel-1.traceg
MemcpyHtoD,0x00007f2a20000000,4
kernel-2.traceg
