/* version.h -- skewsim's version, for what prints or records it (`skewsim
 * version`, the HTML report): the one place it is written. */
#ifndef SKEWSIM_VERSION_H
#define SKEWSIM_VERSION_H

#ifndef SKEWSIM_VERSION
#define SKEWSIM_VERSION "0.1.0"
#endif

#endif
