# Entry kprobes with the kernel's fetch forms, while cat opens a file whose path the case
# knows.  do_sys_openat2(dfd, filename, how) gets AT_FDCWD (-100) and a user pointer to the
# path; do_filp_open(dfd, struct filename *name, ...) gets the path in kernel memory
# (name->name is the struct's first member).  Each value is checked against those facts:
# the types against -100 (0x9c in the low byte) and against the path's first 8 bytes,
# "/tmp/cas" (its folder is /tmp/case-kprobe-fetch).  dfd is an int: the register's upper
# half is not part of it, so 64-bit types read memory instead.  A short path is kept in the
# struct filename itself (iname, at offset 32 in 6.1): name->name - 32 is the struct, whose
# first word is name->name again, which a negative offset shows.  @ADDR is linux_banner's
# address from kallsyms.
echo hello >known-file
f=$CASE_DIR/known-file
name='+0(+0(%si))'
banner=$(grep -m1 ' linux_banner$' /proc/kallsyms | cut -d' ' -f1)
ok tk probe trace \
	"p:tk/open do_sys_openat2 dfd=%di:s32 path=+0(%si):ustring upath=+u0(%si):string a1=\$arg1:s32 c=\$comm" \
	"p:tk/filp do_filp_open name=$name:string head=$name:u8[5] ret=\$stack0:symbol sp=\$stack i=\\42:u8" \
	"p:tk/types do_filp_open u8=%di:u8 s8=%di:s8 x8=%di:x8 u16=%di:u16 s16=%di:s16 x16=%di:x16 u32=%di:u32 s32=%di:s32 x32=%di:x32 u64=$name:u64 s64=$name:s64 x64=$name:x64 hi=%di:b4@4/8 lo=%di:b3@0/8 top=%di:b1@7/8 name=$name:string" \
	'p:tk/banner do_filp_open release=@linux_banner+14:string' \
	"p:tk/addr do_filp_open neg=-32(+0(%si)):x64 ptr=+0(%si):x64 v=@0x$banner:string" \
	-- cat "$f"
has '^hello$'
has "^ +cat-[0-9]+ +\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+: open: \(do_sys_openat2\+0x0/0x[0-9a-f]+\) dfd=-100 path=\"$f\" upath=\"$f\" a1=-100 c=\"cat\"$"
has "cat-[0-9]+ .* filp: \(do_filp_open\+0x0/0x[0-9a-f]+\) name=\"$f\" head=\{47,116,109,112,47\} ret=do_sys_openat2\+0x[0-9a-f]+/0x[0-9a-f]+ sp=0xff[0-9a-f]{14} i=42$"
has "cat-[0-9]+ .* types: \(do_filp_open\+0x0/0x[0-9a-f]+\) u8=156 s8=-100 x8=0x9c u16=65436 s16=-100 x16=0xff9c u32=4294967196 s32=-100 x32=0xffffff9c u64=8314035442503480367 s64=8314035442503480367 x64=0x7361632f706d742f hi=9 lo=4 top=1 name=\"$f\"$"
has "cat-[0-9]+ .* banner: \(do_filp_open\+0x0/0x[0-9a-f]+\) release=\"$LAB_RELEASE "
has "cat-[0-9]+ .* addr: \(do_filp_open\+0x0/0x[0-9a-f]+\) neg=(0x[0-9a-f]+) ptr=\\1 v=\"Linux version $LAB_RELEASE "
