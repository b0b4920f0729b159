/* version.h -- which skewsim this is: the release and the source commit it
 * was built from, recorded in every sweep point's provenance (docs/hpc.md)
 * and part of its resume key, so results of two builds never mix silently. */
#ifndef SKEWSIM_VERSION_H
#define SKEWSIM_VERSION_H

#define SKEWSIM_VERSION "0.1.0"

/* SKEWSIM_VERSION. */
const char *sk_version(void);
/* `git describe --always --dirty` of the tree at build time (the Makefile
 * writes it into $(BUILD)/gen/commit.h when it changes), or "unknown" when
 * the tree was not a git checkout.  A "-dirty" suffix: uncommitted changes. */
const char *sk_commit(void);

#endif
