/* JSON string literals; see json.h. */
#include "util/json.h"

#include <string.h>

void json_str(struct strbuf *sb, const char *s)
{
	json_strn(sb, s, strlen(s));
}

void json_strn(struct strbuf *sb, const char *s, size_t n)
{
	sb_addc(sb, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\')
			sb_printf(sb, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			sb_printf(sb, "\\u%04x", ch);
		else
			sb_addc(sb, (char)ch);
	}
	sb_addc(sb, '"');
}
