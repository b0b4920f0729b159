/* version.c -- the release and the build's source commit (version.h). */
#include "skewsim/version.h"
/* $(BUILD)/gen/commit.h, written by the Makefile; a build without it (the
 * fuzz targets') says "unknown". */
#if defined(__has_include)
#if __has_include("commit.h")
#include "commit.h"
#endif
#endif

#ifndef SKEWSIM_COMMIT
#define SKEWSIM_COMMIT "unknown"
#endif

const char *sk_version(void)
{
    return SKEWSIM_VERSION;
}

const char *sk_commit(void)
{
    return SKEWSIM_COMMIT;
}
