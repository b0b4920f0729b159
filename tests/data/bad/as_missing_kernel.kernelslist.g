MemcpyHtoD,0x00007f2a10000000,4096
kernel-99.traceg
