/* gen_empty.c -- cap_launch.cu's empty_kernel (E12: launch chains of
 * kernels that do nothing), `__global__ void empty_kernel() {}`, as nvcc
 * -O3 -arch=sm_90 compiled it (validation/h200/capture/sass/
 * cap_launch.sass.gz): the stack pointer's constant load and EXIT; the
 * listing's trailing `BRA` to itself and NOPs never issue.  regs=16: ptxas's
 * count was not captured; 16 x 2048 threads is half the register file, so
 * it never limits occupancy. */
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

int gen_empty(kernel *k, long block, long grid, sk_error *e)
{
    memset(k, 0, sizeof *k);
    const long v[] = {block, grid};
    if (gen_check(&gen_workloads[GEN_EMPTY], v, 0, 2, e) < 0)
        return e->code;
    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel empty_kernel grid=%ld block=%ld regs=16 data=quiet\nprogram main\n"
              "LDC R1 bytes=4 pattern=uniform stall=1\nEXIT stall=5\nend\nendkernel\n", grid, block);
    int rc = gen_parse(k, "gen empty", b.s, e);
    free(b.s);
    return rc;
}
