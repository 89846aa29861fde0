/*
 * The Code: line: the bytes around the faulting instruction, which the
 * kernel marks (<0f> on x86, (b9410360) on arm64).  Disassembled with
 * capstone from the marker on — that start is an instruction boundary.  The
 * bytes before it may start in the middle of an instruction, so the listing
 * before the marker is the longest one that decodes cleanly and ends exactly
 * at the marker (what the kernel's scripts/decodecode also tries).
 */
#include <capstone/capstone.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "oops/oops.h"
#include "util/die.h"

int oops_parse_code(const char *text, struct oops_code *code, bool arm64)
{
	memset(code, 0, sizeof(*code));
	size_t cap = strlen(text) / 2 + 8;
	code->bytes = xmalloc(cap);
	const char *s = text;
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		bool marked = *s == '<' || *s == '(';
		const char *h = s + marked;
		size_t n = 0;
		while (isxdigit((unsigned char)h[n]))
			n++;
		const char *after = h + n;
		if (marked) {
			if (*after != (*s == '<' ? '>' : ')'))
				goto bad;
			after++;
		}
		if ((*after && *after != ' ') || (n != 2 && n != 8) || (n == 8) != arm64 ||
		    code->nbytes + n / 2 > cap)
			goto bad;
		if (marked) {
			if (code->has_marker)
				goto bad;
			code->marker = code->nbytes;
			code->has_marker = true;
		}
		uint32_t v = (uint32_t)strtoul(h, NULL, 16);
		/* arm64 prints instruction words; memory holds them little-endian. */
		for (size_t i = 0; i < n / 2; i++)
			code->bytes[code->nbytes++] = (uint8_t)(n == 2 ? v : v >> (8 * i));
		s = after;
	}
	code->arm64 = arm64;
	if (code->nbytes && code->has_marker)
		return 0;
bad:
	free(code->bytes);
	memset(code, 0, sizeof(*code));
	return -1;
}

static int open_cs(const struct oops_report *r, csh *h)
{
	bool arm64 = r->code.arm64;
	cs_mode mode = arm64 ? CS_MODE_LITTLE_ENDIAN
			     : (r->arch && !strcmp(r->arch, "i386") ? CS_MODE_32 : CS_MODE_64);
	return cs_open(arm64 ? CS_ARCH_ARM64 : CS_ARCH_X86, mode, h) == CS_ERR_OK ? 0 : -1;
}

int oops_code_fault_insn(const struct oops_report *r, char *out, size_t outsz)
{
	csh h;
	cs_insn *insn;
	if (!r->has_code || open_cs(r, &h) < 0)
		return -1;
	const struct oops_code *c = &r->code;
	size_t n = cs_disasm(h, c->bytes + c->marker, c->nbytes - c->marker, 0, 1, &insn);
	if (n)
		snprintf(out, outsz, "%s%s%s", insn[0].mnemonic, insn[0].op_str[0] ? " " : "",
			 insn[0].op_str);
	cs_free(insn, n);
	cs_close(&h);
	return n ? 0 : -1;
}

/* Where in the prologue bytes decoding can start and end exactly at the marker. */
static size_t clean_start(csh h, const struct oops_code *c)
{
	for (size_t start = 0; start < c->marker; start++) {
		cs_insn *insn;
		size_t n = cs_disasm(h, c->bytes + start, c->marker - start, start, 0, &insn);
		size_t covered = 0;
		for (size_t i = 0; i < n; i++)
			covered += insn[i].size;
		cs_free(insn, n);
		if (n && covered == c->marker - start)
			return start;
	}
	return c->marker;
}

/*
 * The address of the Code: bytes' first byte.  With a resolved fault the
 * listing shows real addresses; with only func+off it shows function offsets
 * (branch targets then read as offsets in the same function); else offsets
 * from the marker.
 */
enum label_style { L_ADDR, L_FUNC, L_MARKER };

static uint64_t code_origin(const struct oops_report *r, enum label_style *style)
{
	const struct oops_code *c = &r->code;
	if (r->has_where_link_addr && r->where_link_addr >= c->marker) {
		*style = L_ADDR;
		return r->where_link_addr - c->marker;
	}
	if (r->has_where && r->where.function && r->where.has_offset && r->where.offset >= c->marker) {
		*style = L_FUNC;
		return r->where.offset - c->marker;
	}
	*style = L_MARKER;
	return 0;
}

static void print_insn(struct strbuf *sb, const struct oops_report *r, const cs_insn *in,
		       enum label_style style, uint64_t origin, bool fault)
{
	char where[160];
	int64_t rel = (int64_t)(in->address - origin) - (int64_t)r->code.marker;
	switch (style) {
	case L_ADDR:
		/* objdump's label: the offset in the function, when the log gave the fault's */
		if (r->where.function && r->where.has_offset) {
			int64_t off = rel + (int64_t)r->where.offset;
			snprintf(where, sizeof(where), "%016" PRIx64 " <%s%s0x%" PRIx64 ">", in->address,
				 r->where.function, off < 0 ? "-" : "+",
				 (uint64_t)(off < 0 ? -off : off));
		} else {
			snprintf(where, sizeof(where), "%016" PRIx64 " <%s%+" PRId64 ">", in->address,
				 r->where.function ? r->where.function : "fault", rel);
		}
		break;
	case L_FUNC:
		snprintf(where, sizeof(where), "%s+0x%" PRIx64, r->where.function, in->address);
		break;
	case L_MARKER:
		snprintf(where, sizeof(where), "fault%+" PRId64, rel);
		break;
	}
	struct strbuf hex = STRBUF_INIT;
	for (size_t i = 0; i < in->size; i++)
		sb_printf(&hex, "%s%02x", i ? " " : "", in->bytes[i]);
	sb_printf(sb, "  %s %s:  %-24s %s%s%s%s\n", fault ? "-->" : "   ", where, sb_str(&hex),
		  in->mnemonic, in->op_str[0] ? " " : "", in->op_str,
		  fault ? "   <-- trapping instruction" : "");
	sb_free(&hex);
}

int oops_disassemble(const struct oops_report *r, struct strbuf *sb)
{
	csh h;
	if (!r->has_code || open_cs(r, &h) < 0)
		return -1;
	const struct oops_code *c = &r->code;
	enum label_style style;
	uint64_t origin = code_origin(r, &style);
	size_t start = clean_start(h, c);
	cs_insn *insn;
	if (start < c->marker) {
		if (!r->code_from)	/* a symbol file's bytes start at the function */
			sb_add(sb, "  (before the trapping instruction: the Code: bytes may start "
				   "mid-instruction)\n");
		size_t n = cs_disasm(h, c->bytes + start, c->marker - start, origin + start, 0, &insn);
		for (size_t i = 0; i < n; i++)
			print_insn(sb, r, &insn[i], style, origin, false);
		cs_free(insn, n);
	}
	size_t n = cs_disasm(h, c->bytes + c->marker, c->nbytes - c->marker, origin + c->marker, 0,
			     &insn);
	for (size_t i = 0; i < n; i++)
		print_insn(sb, r, &insn[i], style, origin, i == 0);
	if (!n)
		sb_add(sb, "  (the bytes at the marker do not decode as an instruction)\n");
	cs_free(insn, n);
	cs_close(&h);
	return 0;
}
