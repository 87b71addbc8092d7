/*
 * tests/srcline/prog.c - a tiny workload with debug info for the live srcline tests
 * (tests/run-cli-tests.sh compiles it with -g -O0, records it with perf and compares
 * perf's srcline/srcfile keys and -g address/srcline call graphs with dirreport's).
 * Two loops in two functions, one of them inlined, so that lines and inlined lines
 * both get samples; then strlen() of libc (whose lines libc6-dbg has): by then the
 * children view has asked perf's addr2line about libc's absolute frame addresses
 * (__libc_start_call_main) more than 123 times without success, and perf stops
 * asking about libc.so.6 (its srclines become SYMBOL+N).
 */
#include <stdio.h>
#include <string.h>

static volatile unsigned long sink;
static char text[1 << 20];

__attribute__((noinline)) static void inner(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

__attribute__((noinline)) static void outer(unsigned long n)
{
	for (int k = 0; k < 3; k++)
		inner(n);
}

static inline __attribute__((always_inline)) void mix(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink ^= i;
}

int main(void)
{
	outer(15000000);
	mix(30000000);
	memset(text, 'a', sizeof(text) - 1);
	for (int k = 0; k < 3000; k++)
		sink += strlen(text);
	printf("%lu\n", sink);
	return 0;
}
