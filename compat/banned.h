#ifndef DIRREPORT_COMPAT_BANNED_H
#define DIRREPORT_COMPAT_BANNED_H
/*
 * Functions that are easy to misuse are compile errors (git's banned.h).
 * Use snprintf/memcpy with explicit lengths instead.
 */
#define BANNED(func) sorry_##func##_is_a_banned_function
#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gmtime
#define gmtime(x) BANNED(gmtime)
#undef localtime
#define localtime(x) BANNED(localtime)
#undef ctime
#define ctime(x) BANNED(ctime)
#undef mktemp
#define mktemp(x) BANNED(mktemp)
#endif
