#include "format/attr.h"

#include <string.h>	/* memset */

#include "format/bytes.h"
#include "format/diag.h"
#include "banned.h"

/* A big-endian compiler allocates bit-fields from the most significant bit, so the
 * flag word of a cross-endian file has the bit order inside each byte reversed. */
static uint64_t swap_flag_bits(uint64_t raw_swapped)
{
	uint64_t out = 0;
	unsigned char b[8];

	memcpy(b, &raw_swapped, 8);
	for (int i = 0; i < 8; i++) {
		unsigned char v = b[i], r = 0;
		for (int k = 0; k < 8; k++)
			if (v & (1u << k))
				r |= (unsigned char)(1u << (7 - k));
		b[i] = r;
	}
	memcpy(&out, b, 8);
	return out;
}

int attr__decode(struct event_attr *a, const void *p, size_t len, bool swap)
{
	const unsigned char *b = p;
	uint32_t size;

	memset(a, 0, sizeof(*a));
	if (len < 8)
		return -DIAG_BAD_ATTR;
	size = bytes__u32x(b + 4, swap);
	if (size == 0)
		size = ATTR_SIZE_VER0;
	if (size < ATTR_SIZE_VER0 || size > len)
		return -DIAG_BAD_ATTR;
	a->type = bytes__u32x(b, swap);
	a->size = size;
	a->config = bytes__u64x(b + 8, swap);
	a->sample_period = bytes__u64x(b + 16, swap);
	a->sample_type = bytes__u64x(b + 24, swap);
	a->read_format = bytes__u64x(b + 32, swap);
	/* The flag word: with swap, un-reverse the bytes then the bits in each byte. */
	a->flags = swap ? swap_flag_bits(bytes__u64(b + 40)) : bytes__u64(b + 40);
	a->wakeup_events = bytes__u32x(b + 48, swap);
	a->bp_type = bytes__u32x(b + 52, swap);
	a->config1 = bytes__u64x(b + 56, swap);
	if (size >= 72)
		a->config2 = bytes__u64x(b + 64, swap);
	if (size >= 80)
		a->branch_sample_type = bytes__u64x(b + 72, swap);
	if (size >= 96) {
		a->sample_regs_user = bytes__u64x(b + 80, swap);
		a->sample_stack_user = bytes__u32x(b + 88, swap);
		a->clockid = (int32_t)bytes__u32x(b + 92, swap);
	}
	if (size >= 104)
		a->sample_regs_intr = bytes__u64x(b + 96, swap);
	if (size >= 112) {
		a->aux_watermark = bytes__u32x(b + 104, swap);
		a->sample_max_stack = bytes__u16x(b + 108, swap);
	}
	if (size >= 120)
		a->aux_sample_size = bytes__u32x(b + 112, swap);
	if (size >= 128)
		a->sig_data = bytes__u64x(b + 120, swap);
	if (size >= 136)
		a->config3 = bytes__u64x(b + 128, swap);
	return 0;
}

int attr__encode(const struct event_attr *a, void *p, size_t size)
{
	unsigned char *b = p;

	if (size < ATTR_SIZE_VER0 || size > ATTR_SIZE_VER8 || size % 8)
		return -DIAG_BAD_ATTR;
	memset(b, 0, size);
	bytes__put_u32(b, a->type);
	bytes__put_u32(b + 4, (uint32_t)size);
	bytes__put_u64(b + 8, a->config);
	bytes__put_u64(b + 16, a->sample_period);
	bytes__put_u64(b + 24, a->sample_type);
	bytes__put_u64(b + 32, a->read_format);
	bytes__put_u64(b + 40, a->flags);
	bytes__put_u32(b + 48, a->wakeup_events);
	bytes__put_u32(b + 52, a->bp_type);
	bytes__put_u64(b + 56, a->config1);
	if (size >= 72)
		bytes__put_u64(b + 64, a->config2);
	if (size >= 80)
		bytes__put_u64(b + 72, a->branch_sample_type);
	if (size >= 96) {
		bytes__put_u64(b + 80, a->sample_regs_user);
		bytes__put_u32(b + 88, a->sample_stack_user);
		bytes__put_u32(b + 92, (uint32_t)a->clockid);
	}
	if (size >= 104)
		bytes__put_u64(b + 96, a->sample_regs_intr);
	if (size >= 112) {
		bytes__put_u32(b + 104, a->aux_watermark);
		bytes__put_u16(b + 108, a->sample_max_stack);
	}
	if (size >= 120)
		bytes__put_u32(b + 112, a->aux_sample_size);
	if (size >= 128)
		bytes__put_u64(b + 120, a->sig_data);
	if (size >= 136)
		bytes__put_u64(b + 128, a->config3);
	return 0;
}

int attr__id_pos(const struct event_attr *a)
{
	uint64_t t = a->sample_type;
	int pos = 0;

	if (t & SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & SAMPLE_ID))
		return -1;
	pos += !!(t & SAMPLE_IP);
	pos += !!(t & SAMPLE_TID);
	pos += !!(t & SAMPLE_TIME);
	pos += !!(t & SAMPLE_ADDR);
	return pos;
}

int attr__is_pos(const struct event_attr *a)
{
	uint64_t t = a->sample_type;

	if (t & SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & SAMPLE_ID))
		return -1;
	return 1 + !!(t & SAMPLE_CPU) + !!(t & SAMPLE_STREAM_ID);
}

size_t attr__id_hdr_size(const struct event_attr *a)
{
	uint64_t t = a->sample_type;
	size_t n = 0;

	if (!attr__flag(a, ATTR_SAMPLE_ID_ALL))
		return 0;
	n += !!(t & SAMPLE_TID);
	n += !!(t & SAMPLE_TIME);
	n += !!(t & SAMPLE_ID);
	n += !!(t & SAMPLE_STREAM_ID);
	n += !!(t & SAMPLE_CPU);
	n += !!(t & SAMPLE_IDENTIFIER);
	return n * 8;
}
