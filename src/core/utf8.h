/* UTF-8 well-formedness, for the places that take text from outside: record strings, error
 * messages that quote an argument, input files. */
#ifndef PST_UTF8_H
#define PST_UTF8_H

#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs, no surrogates, at most
 * U+10FFFF) within avail bytes, or 0 when the bytes there are not one.  For a NUL-terminated
 * string avail may be SIZE_MAX: the NUL fails the continuation-byte test. */
size_t pst_utf8_sequence(const unsigned char *p, size_t avail);

#endif
