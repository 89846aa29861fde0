/* JSON string literals; see json.h. */
#include "util/json.h"

void json_str(struct strbuf *sb, const char *s)
{
	sb_addc(sb, '"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			sb_printf(sb, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			sb_printf(sb, "\\u%04x", ch);
		else
			sb_addc(sb, (char)ch);
	}
	sb_addc(sb, '"');
}
