/**
 * The Perl module the shell engine's `perl` loads before the program (`-I<dir> -M<module>` ahead of the user's
 * switches; perl-worker.ts serves the file from a directory outside the sprite's tree, and the module takes both out of
 * `@INC` and `%INC` again). It makes perl the sprite's machine where the WebAssembly build differs from a real one,
 * and makes loud what the shell engine cannot do:
 *
 * - running a program (`system`, `exec`, backticks/`qx`, `open` of a pipe, `fork`, `pipe`), sockets, and the
 *   functions the build lacks ("The X function is unimplemented") print `perl: … is not available in the shell
 *   engine; run spritzer with --exec sandbox` and end perl with status 255 at once (the WebAssembly perl would return
 *   -1 or undef quietly);
 * - a module the build lacks (`POSIX`, `Socket`, `B`…) dies naming `--exec sandbox` (an `eval { require X }` still
 *   catches it, as it catches a missing module);
 * - `$^O` is `linux` (the build's is `wasi`);
 * - `stat`/`lstat` give the file's mode bits, owner and group (WASI's stat has none); `chmod`, `chown`, `umask` and
 *   `mkdir`'s mode act on the sprite (WASI has no such calls); `$<`, `$>`, `$(`, `$)` are the sprite user's (or
 *   root's under sudo);
 * - how perl ends is told to the engine, which cannot see it when perl stops while compiling: `exit` in a BEGIN
 *   block, and a fatal `die`'s `$!` and `$?` (perl's exit status is `$!`, else `$? >> 8`, else 255, and WASI's errno
 *   numbers differ from Linux's: the engine maps them, perl-runner.ts).
 *
 * The engine answers on a descriptor of its own (`ctl`): one request a line, fields separated by tabs.
 * @see perlrun(1), perlsub(1) "Overriding Built-in Functions", perlvar(1) `$!` `$?` `$^S`
 */

/** The module's name (`-M`), and so its file name under the directory perl-worker.ts serves. */
export const PRELUDE_MODULE = 'SpritzerShellEngine';

/**
 * The module's source for a perl run as user `uid`/`gid` with the supplementary groups `groups` (as getgroups(2)
 * returns them: `$(` and `$)` are the gid then those, as perlvar says), whose engine listens on descriptor `ctlFd`,
 * loaded from `libDir`.
 */
export function preludeSource(ctlFd: number, libDir: string, uid: number, gid: number, groups: readonly number[] = [gid]): string {
  return `package ${PRELUDE_MODULE};
no strict; no warnings;
my $CTL;
BEGIN { open($CTL, '+<&=', ${ctlFd}) or die "perl: the shell engine's channel is missing\\n"; }
# The build says \$^O is wasi; a program that branches on the OS (File::Spec, \$^O eq 'linux') must see the sprite's.
\$^O = 'linux';
sub ask { local $!; my $q = join("\\t", @_) . "\\n"; syswrite($CTL, $q); my $r = ''; sysread($CTL, $r, 65536); $r }
sub refuse {
  my ($what) = @_;
  my $old = select(STDOUT); $| = 1; select(STDERR); $| = 1; select($old);
  ask('refuse', $what);
  CORE::exit(255);
}
sub absolute {
  my ($f) = @_;
  return $f if $f =~ m{^/};
  require Cwd;
  my $d = Cwd::getcwd();
  return ($d eq '/' ? '' : $d) . "/$f";
}
my %MAIN = map { $_ => 1 } qw(STDIN STDOUT STDERR ARGV ARGVOUT ENV INC _);
sub handle {
  my ($name, $pkg) = @_;
  $name = ($MAIN{$name} ? 'main' : $pkg) . "::$name" unless $name =~ /::|'/;
  return \\*{$name};
}
sub stat_of {
  my ($link, $f, $pkg) = @_;
  my (@s, $key);
  if (!ref $f && ref \\$f ne 'GLOB' && $f eq '_') {
    @s = CORE::stat(_);
    return wantarray ? @s : !!@s;
  }
  my $fh = ref $f ? $f : ref \\$f eq 'GLOB' ? \\$f : undef;
  if (!$fh && defined $f && $f =~ /^[A-Za-z_][\\w:']*$/) {
    my $g = handle($f, $pkg);
    $fh = $g if defined *{$g}{IO} && defined fileno($g);
  }
  if ($fh) {
    @s = $link ? CORE::lstat($fh) : CORE::stat($fh);
    $key = 'fd:' . fileno($fh) if @s && defined fileno($fh);
  } else {
    @s = $link ? CORE::lstat($f) : CORE::stat($f);
    $key = absolute($f) if @s;
  }
  if (@s && defined $key) {
    my $e = $!;
    my ($m, $u, $g) = split ' ', ask('stat', $key, $link ? 'l' : 'f');
    if (defined $g) { $s[2] = ($s[2] & ~07777) | ($m & 07777); $s[4] = $u; $s[5] = $g; }
    $! = $e;
  }
  return wantarray ? @s : !!@s;
}
sub entries {
  my ($file) = @_;
  open(my $f, '<', $file) or return;
  my $c = '';
  1 while sysread($f, $c, 65536, length $c);
  close $f;
  return map { [split /:/, $_, -1] } grep { length } split /\n/, $c;
}
sub pw {
  my ($field, $want) = @_;
  for my $p (entries('/etc/passwd')) {
    next unless @$p >= 7 && $p->[$field] eq $want;
    my @e = ($p->[0], $p->[1], $p->[2], $p->[3], '', '', $p->[4], $p->[5], $p->[6]);
    return wantarray ? @e : $e[$field == 0 ? 2 : 0];
  }
  return;
}
sub gr {
  my ($field, $want) = @_;
  for my $g (entries('/etc/group')) {
    next unless @$g >= 4 && $g->[$field] eq $want;
    my @e = ($g->[0], $g->[1], $g->[2], join(' ', split /,/, $g->[3]));
    return wantarray ? @e : $e[$field == 0 ? 2 : 0];
  }
  return;
}
sub chmod_one {
  my ($verb, @args) = @_;
  my $r = ask($verb, @args);
  return 1 if $r == 0;
  $! = $r;
  return 0;
}
BEGIN {
  # Linux perl loads an XS module from a shared object after stat-ing its absent .bs file: errno is ENOENT
  # after it (a later die exits 2); this build's modules are linked in and leave errno as it was.
  require XSLoader;
  my $load = \\&XSLoader::load;
  *XSLoader::load = sub { $! = 44; goto &$load };
  *CORE::GLOBAL::system = sub { refuse('running a program (system)') };
  *CORE::GLOBAL::exec = sub { refuse('running a program (exec)') };
  *CORE::GLOBAL::readpipe = sub { refuse('running a program (backticks, qx)') };
  *CORE::GLOBAL::fork = sub () { refuse('fork') };
  *CORE::GLOBAL::pipe = sub (**) { refuse('pipe') };
  *CORE::GLOBAL::socket = sub (*$$$) { refuse('a socket') };
  *CORE::GLOBAL::socketpair = sub (**$$$) { refuse('a socket') };
  *CORE::GLOBAL::open = sub (*;$@) {
    if (@_ == 2 && defined $_[1] && $_[1] =~ /^\\s*\\||\\|\\s*$/) { refuse('running a program (open of a pipe)') }
    if (@_ >= 3 && defined $_[1] && $_[1] =~ /\\|/) { refuse('running a program (open of a pipe)') }
    my $fh = (defined $_[0] && !ref $_[0] && ref \\$_[0] ne 'GLOB') ? handle($_[0], scalar caller) : undef;
    if ($fh) { return @_ == 1 ? CORE::open($fh) : @_ == 2 ? CORE::open($fh, $_[1]) : CORE::open($fh, $_[1], @_[2 .. $#_]) }
    return @_ == 1 ? CORE::open($_[0]) : @_ == 2 ? CORE::open($_[0], $_[1]) : CORE::open($_[0], $_[1], @_[2 .. $#_]);
  };
  *CORE::GLOBAL::sysopen = sub (*$$;$) {
    my ($name, $flags) = ($_[1], $_[2]);
    my $perms = @_ > 3 ? $_[3] : 0666;
    require Fcntl;
    my $fresh = ($flags & Fcntl::O_CREAT()) && !-e $name;
    my $fh = (defined $_[0] && !ref $_[0] && ref \\$_[0] ne 'GLOB') ? handle($_[0], scalar caller) : undef;
    my $ok = $fh ? CORE::sysopen($fh, $name, $flags, $perms) : CORE::sysopen($_[0], $name, $flags, $perms);
    chmod_one('chmod', $perms & ~CORE::GLOBAL::umask() & 07777, absolute($name)) if $ok && $fresh;
    return $ok;
  };
  *CORE::GLOBAL::getpwuid = sub ($) { pw(2, $_[0]) };
  *CORE::GLOBAL::getpwnam = sub ($) { pw(0, $_[0]) };
  *CORE::GLOBAL::getgrgid = sub ($) { gr(2, $_[0]) };
  *CORE::GLOBAL::getgrnam = sub ($) { gr(0, $_[0]) };
  *CORE::GLOBAL::stat = sub (;*) { stat_of(0, @_ ? $_[0] : $_, scalar caller) };
  *CORE::GLOBAL::lstat = sub (;*) { stat_of(1, @_ ? $_[0] : $_, scalar caller) };
  *CORE::GLOBAL::chmod = sub (@) {
    my ($mode, @files) = @_;
    my $n = 0;
    for my $f (@files) { $n += chmod_one('chmod', $mode, absolute($f)) }
    return $n;
  };
  *CORE::GLOBAL::chown = sub (@) {
    my ($u, $g, @files) = @_;
    my $n = 0;
    for my $f (@files) { $n += chmod_one('chown', $u, $g, absolute($f)) }
    return $n;
  };
  *CORE::GLOBAL::umask = sub (;$) { 0 + ask('umask', @_ && defined $_[0] ? $_[0] : '') };
  *CORE::GLOBAL::mkdir = sub (_;$) {
    my ($d, $m) = @_;
    my $ok = CORE::mkdir($d);
    chmod_one('chmod', ($m & ~CORE::GLOBAL::umask()) & 07777, absolute($d)) if $ok && defined $m;
    return $ok;
  };
  *CORE::GLOBAL::exit = sub (;$) {
    my $s = @_ ? $_[0] : 0;
    ask('exit', $s) if \${^GLOBAL_PHASE} eq 'START';
    CORE::exit($s);
  };
  *{'main::<'} = \\ ${uid};
  *{'main::>'} = \\ ${uid};
  *{'main::('} = \\ "${[gid, ...groups].join(' ')}";
  *{'main::)'} = \\ "${[gid, ...groups].join(' ')}";
}
$SIG{__DIE__} = sub {
  my ($e, $c) = ($! + 0, $?);
  refuse("the $1 function") if $_[0] =~ /^The (\\w+) function is unimplemented/;
  ask('die', $e, $c) unless $^S;
  ($!, $?) = ($e, $c);
};
push @INC, sub {
  my (undef, $file) = @_;
  return unless $file =~ /\\.pm$/;
  die "Can't locate $file: the module is not available in the shell engine; run spritzer with --exec sandbox\\n";
};
INIT { ask('run') }
@INC = grep { $_ ne '${libDir}' } @INC;
delete $INC{'${PRELUDE_MODULE}.pm'};
1;
`;
}
