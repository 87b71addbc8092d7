/*
 * mapguard - SIGBUS on a guarded file mapping becomes zero pages and a flag (see
 * mapguard.h).
 */
#include "reader/mapguard.h"

#include <pthread.h>	/* pthread_once */
#include <signal.h>	/* sigaction, siginfo_t */
#include <stdatomic.h>
#include <string.h>	/* memset */
#include <sys/mman.h>	/* mmap */
#include <unistd.h>	/* sysconf */

#include "banned.h"

#define NO_FAULT UINT64_MAX

struct slot {
	atomic_uintptr_t base;	/* 0: free */
	atomic_size_t len;
	atomic_uint_fast64_t fault;	/* lowest faulting offset, or NO_FAULT */
};

static struct slot slots[MAPGUARD_SLOTS];
static struct sigaction old_action;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_bool installed;
static uintptr_t page_size;

/* A fault at a (inside slot s): zero pages from a's page to the mapping's end. */
static void patch(struct slot *s, uintptr_t base, size_t len, uintptr_t a)
{
	uintptr_t from = a & ~(page_size - 1), end = base + len;
	uint_fast64_t off = a - base, cur = atomic_load(&s->fault);

	end = (end + page_size - 1) & ~(page_size - 1);
	if (from < base)
		from = base;
	/* the file has no bytes there any more: they read as zeros from now on */
	(void)mmap((void *)from, end - from, PROT_READ,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	while (off < cur && !atomic_compare_exchange_weak(&s->fault, &cur, off))
		;
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	for (size_t i = 0; i < MAPGUARD_SLOTS; i++) {
		uintptr_t base = atomic_load(&slots[i].base);
		size_t len = atomic_load(&slots[i].len);

		if (base > 1 && a >= base && a - base < len) {
			patch(&slots[i], base, len, a);
			return;
		}
	}
	/* not ours: what was there before (the default: the fault again, fatal) */
	if (old_action.sa_flags & SA_SIGINFO) {
		old_action.sa_sigaction(sig, si, uc);
		return;
	}
	if (old_action.sa_handler != SIG_DFL && old_action.sa_handler != SIG_IGN) {
		old_action.sa_handler(sig);
		return;
	}
	signal(sig, SIG_DFL);	/* returning re-runs the access: it faults, fatally */
}

static void install(void)
{
	struct sigaction sa;

	page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	for (size_t i = 0; i < MAPGUARD_SLOTS; i++)
		atomic_init(&slots[i].fault, NO_FAULT);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &old_action) == 0)
		atomic_store(&installed, true);
}

int mapguard__add(const void *base, size_t len)
{
	pthread_once(&once, install);
	if (!atomic_load(&installed) || !base || !len)
		return -1;
	for (int i = 0; i < MAPGUARD_SLOTS; i++) {
		uintptr_t zero = 0;

		/* claimed with base 1 (matches no address: len is 0), filled, then
		 * published with its real base */
		if (atomic_load(&slots[i].base) ||
		    !atomic_compare_exchange_strong(&slots[i].base, &zero, 1))
			continue;
		atomic_store(&slots[i].fault, NO_FAULT);
		atomic_store(&slots[i].len, len);
		atomic_store(&slots[i].base, (uintptr_t)base);
		return i;
	}
	return -1;
}

void mapguard__remove(int slot)
{
	if (slot < 0 || slot >= MAPGUARD_SLOTS)
		return;
	atomic_store(&slots[slot].len, 0);
	atomic_store(&slots[slot].base, 0);
}

bool mapguard__faulted(int slot, uint64_t *offset)
{
	uint_fast64_t f;

	if (slot < 0 || slot >= MAPGUARD_SLOTS)
		return false;
	f = atomic_load(&slots[slot].fault);
	if (f == NO_FAULT)
		return false;
	if (offset)
		*offset = f;
	return true;
}
