/* mem.c -- what every memory level shares (mem.h).  The levels themselves
 * live one per file beside this one: flat.c today. */
#include "skewsim/mem.h"

void mem_destroy(mem_level *l)
{
    if (l)
        l->ops->destroy(l);
}
