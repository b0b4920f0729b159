MemcpyHtoD,0x00007f2a10000000,4096
MemcpyHtoD,zz,4
kernel-1.traceg
