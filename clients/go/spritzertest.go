// Package spritzertest runs spritzer, the local Sprites API emulator, for Go tests and stops it afterwards.
//
//	func TestExec(t *testing.T) {
//		s := spritzertest.Start(t)                       // stopped by t.Cleanup
//		client := sprites.New(s.Token, sprites.WithBaseURL(s.BaseURL))
//		...
//	}
//
//	func TestMain(m *testing.M) { spritzertest.Main(m) } // one server for the package; SPRITES_BASE_URL, SPRITES_TOKEN set
//
// The server is `node <spritzer>/bin/spritzer.mjs --addr 127.0.0.1:0 --token <random>` in a process group of its
// own; Stop sends the group SIGTERM, then SIGKILL. npx is refused: it neither obeys SIGINT/SIGTERM nor passes them
// on. SIGINT or SIGTERM to the test binary (Ctrl-C) stops every server first, and on Linux a server whose test
// binary died anyway gets SIGTERM from the kernel. See docs/testing.md of spritzer.
package spritzertest

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var ready = regexp.MustCompile(`spritzer listening on (http://\S+)`)

// Options of Start, StartServer and Main; the zero value of each field means its default.
type Options struct {
	// Engine is the server's --exec engine (default: $SPRITZER_EXEC, else "shell").
	Engine string
	// Command starts spritzer, e.g. []string{"node", "/path/bin/spritzer.mjs"} (default: $SPRITZER_CMD, split on
	// spaces; else node $SPRITZER_BIN; else node_modules/spritzer-emulator found from the working directory upwards; else
	// `spritzer` on PATH, its link resolved).
	Command []string
	// Token is the bearer token the server requires (default: a random one).
	Token string
	// Args are more server flags.
	Args []string
	// StartupTimeout bounds the wait for GET /_spritzer/health (default 60 s).
	StartupTimeout time.Duration
	// StopTimeout is how long the group gets after SIGTERM before SIGKILL (default 15 s).
	StopTimeout time.Duration
}

// Server is one running spritzer.
type Server struct {
	// BaseURL is what SPRITES_BASE_URL holds, e.g. http://127.0.0.1:40123.
	BaseURL string
	// Token is the bearer token the server requires.
	Token string
	// PID is the server's process id, which is also its process group id.
	PID int

	cmd      *exec.Cmd
	exited   chan struct{}
	stopOnce sync.Once
	stopErr  error
	stopWait time.Duration
	logMu    sync.Mutex
	log      []string
}

var (
	running   = map[*Server]struct{}{}
	runningMu sync.Mutex
	sigOnce   sync.Once
)

// Start starts a server for one test (or benchmark) and stops it in t.Cleanup; a server that cannot start fails
// the test with the server's last output lines.
func Start(t testing.TB, opts ...Options) *Server {
	t.Helper()
	s, err := StartServer(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("spritzertest: %v", err)
		}
	})
	return s
}

// Main is a TestMain for a package whose tests share one server: it starts it, sets SPRITES_BASE_URL and
// SPRITES_TOKEN, runs the tests, stops the server and exits with the tests' code (1 when the server cannot start).
// Shared returns the server to the tests.
func Main(m *testing.M, opts ...Options) {
	s, err := StartServer(opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "spritzertest:", err)
		os.Exit(1)
	}
	shared = s
	os.Setenv("SPRITES_BASE_URL", s.BaseURL)
	os.Setenv("SPRITES_TOKEN", s.Token)
	code := m.Run()
	if err := s.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "spritzertest:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

var shared *Server

// Shared is the server Main started (nil outside Main).
func Shared() *Server { return shared }

// StartServer starts a server and returns once GET /_spritzer/health answers 200. The caller calls Stop.
func StartServer(opts ...Options) (*Server, error) {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	argv, err := command(o.Command)
	if err != nil {
		return nil, err
	}
	engine := o.Engine
	if engine == "" {
		engine = os.Getenv("SPRITZER_EXEC")
	}
	if engine == "" {
		engine = "shell"
	}
	token := o.Token
	if token == "" {
		b := make([]byte, 8)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		token = "spritzer-gotest-" + hex.EncodeToString(b)
	}
	startup := o.StartupTimeout
	if startup == 0 {
		startup = 60 * time.Second
	}
	s := &Server{Token: token, exited: make(chan struct{}), stopWait: o.StopTimeout}
	if s.stopWait == 0 {
		s.stopWait = 15 * time.Second
	}
	args := append(append([]string{}, argv[1:]...), "--addr", "127.0.0.1:0", "--token", token, "--exec", engine)
	args = append(args, o.Args...)
	if ns, err := namespaceArgs(engine, o.Args); err != nil {
		return nil, err
	} else {
		args = append(args, ns...)
	}
	s.cmd = exec.Command(argv[0], args...)
	s.cmd.SysProcAttr = procAttr()
	s.cmd.Stdin = nil
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.cmd.Stderr = s.cmd.Stdout
	catchSignals()
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start spritzer (%s): %w", strings.Join(argv, " "), err)
	}
	s.PID = s.cmd.Process.Pid
	runningMu.Lock()
	running[s] = struct{}{}
	runningMu.Unlock()
	urls := make(chan string, 1)
	go s.drain(out, urls)
	go func() { _ = s.cmd.Wait(); close(s.exited) }()

	// fail stops the server and says what happened, with its last output lines; only a wait that ran out names the
	// start-up timeout (a server that exited at once did not take it).
	fail := func(what string) (*Server, error) {
		_ = s.Stop()
		return nil, fmt.Errorf("spritzer (%s --exec %s) %s:\n%s", strings.Join(argv, " "), engine, what, s.tail(30))
	}
	exitedWith := func() string {
		<-s.exited
		return fmt.Sprintf("exited with %d", s.cmd.ProcessState.ExitCode())
	}
	deadline := time.After(startup)
	select {
	case u, ok := <-urls:
		if !ok {
			return fail(exitedWith() + " before printing its ready line")
		}
		s.BaseURL = u
	case <-s.exited:
		return fail(exitedWith() + " before printing its ready line")
	case <-deadline:
		return fail(fmt.Sprintf("did not print its ready line within %s", startup))
	}
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		if res, err := client.Get(s.BaseURL + "/_spritzer/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case <-s.exited:
			return fail(exitedWith())
		case <-deadline:
			return fail(fmt.Sprintf("did not answer /_spritzer/health within %s", startup))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (s *Server) drain(out io.Reader, urls chan<- string) {
	lines := bufio.NewScanner(out)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	found := false
	for lines.Scan() {
		line := lines.Text()
		s.logMu.Lock()
		s.log = append(s.log, line)
		if len(s.log) > 200 {
			s.log = s.log[len(s.log)-200:]
		}
		s.logMu.Unlock()
		if !found {
			if m := ready.FindStringSubmatch(line); m != nil {
				found = true
				urls <- m[1]
			}
		}
	}
	if !found {
		close(urls)
	}
}

func (s *Server) tail(n int) string {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	from := len(s.log) - n
	if from < 0 {
		from = 0
	}
	return strings.Join(s.log[from:], "\n")
}

// Env is SPRITES_BASE_URL and SPRITES_TOKEN as KEY=VALUE strings, for exec.Cmd.Env.
func (s *Server) Env() []string {
	return []string{"SPRITES_BASE_URL=" + s.BaseURL, "SPRITES_TOKEN=" + s.Token}
}

// Reset forgets every sprite, session, service and fault rule (POST /_spritzer/reset, 204).
func (s *Server) Reset() error {
	req, _ := http.NewRequest(http.MethodPost, s.BaseURL+"/_spritzer/reset", nil)
	req.Header.Set("Authorization", "Bearer "+s.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("spritzer reset: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		body, _ := io.ReadAll(io.LimitReader(res.Body, 500))
		return fmt.Errorf("spritzer reset answered %d: %s", res.StatusCode, body)
	}
	return nil
}

// Request is one entry of the inspector's request log (GET /_spritzer/requests); fields beyond these are kept in Raw.
type Request struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Status int             `json:"status"`
	Raw    json.RawMessage `json:"-"`
}

// Requests is the inspector's request log, newest first.
func (s *Server) Requests() ([]Request, error) {
	req, _ := http.NewRequest(http.MethodGet, s.BaseURL+"/_spritzer/requests", nil)
	req.Header.Set("Authorization", "Bearer "+s.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var body struct {
		Requests []json.RawMessage `json:"requests"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return nil, fmt.Errorf("spritzer requests: %w", err)
	}
	out := make([]Request, 0, len(body.Requests))
	for _, raw := range body.Requests {
		var r Request
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, err
		}
		r.Raw = raw
		out = append(out, r)
	}
	return out, nil
}

// namespaceArgs: on the container engine sprites outlive a server and the next one of the same namespace adopts
// them (spritzer's docs/container.md "Restarts"). A test server's sprites end with it (--ephemeral, also when the test
// binary dies and the kernel sends the server SIGTERM), and it gets a namespace of its own ("spritzer-test-<8 hex>"),
// so that servers started one after another or side by side on one Docker daemon never see each other's sprites;
// unless the caller chose a namespace (--namespace in Args, or SPRITZER_NAMESPACE).
func namespaceArgs(engine string, args []string) ([]string, error) {
	if engine != "container" {
		return nil, nil
	}
	if os.Getenv("SPRITZER_NAMESPACE") != "" {
		return []string{"--ephemeral"}, nil
	}
	for _, a := range args {
		if a == "--namespace" || strings.HasPrefix(a, "--namespace=") {
			return []string{"--ephemeral"}, nil
		}
	}
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	return []string{"--ephemeral", "--namespace", "spritzer-test-" + hex.EncodeToString(b)}, nil
}

// Stop sends SIGTERM to the server's process group, SIGKILL to what is left after the stop timeout (and to any
// member of the group left once the server exited). Safe to call twice; it returns the first call's error.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		pgid := s.PID
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(s.stopWait):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-s.exited
			s.stopErr = fmt.Errorf("spritzer (pid %d) did not stop within %s of SIGTERM; killed", pgid, s.stopWait)
		}
		_ = syscall.Kill(-pgid, syscall.SIGKILL) // whatever the server started in its group and left behind
		runningMu.Lock()
		delete(running, s)
		runningMu.Unlock()
	})
	return s.stopErr
}

// catchSignals makes SIGINT and SIGTERM of the test binary stop every running server before the binary dies of
// the signal, as it would have without this.
func catchSignals() {
	sigOnce.Do(func() {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
		go func() {
			sig := <-ch
			runningMu.Lock()
			all := make([]*Server, 0, len(running))
			for s := range running {
				all = append(all, s)
			}
			runningMu.Unlock()
			for _, s := range all {
				_ = s.Stop()
			}
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			_ = syscall.Kill(os.Getpid(), sig.(syscall.Signal))
		}()
	})
}

// command is the argv that starts spritzer (see Options.Command).
func command(explicit []string) ([]string, error) {
	argv := explicit
	if len(argv) == 0 {
		argv = strings.Fields(os.Getenv("SPRITZER_CMD"))
	}
	if len(argv) > 0 {
		if base := filepath.Base(argv[0]); base == "npx" || base == "npm" {
			return nil, fmt.Errorf("spritzer command %q goes through %s, which does not pass SIGINT/SIGTERM on, so the server would outlive the tests; give node <path>/bin/spritzer.mjs (SPRITZER_BIN) instead", strings.Join(argv, " "), base)
		}
		return argv, nil
	}
	node := os.Getenv("SPRITZER_NODE")
	if node == "" {
		node = "node"
	}
	if bin := os.Getenv("SPRITZER_BIN"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			return nil, fmt.Errorf("SPRITZER_BIN %q: %w", bin, err)
		}
		return []string{node, bin}, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for {
		if found := scriptIn(dir); found != "" {
			return []string{node, found}, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if p, err := exec.LookPath("spritzer"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil && (strings.HasSuffix(real, ".mjs") || strings.HasSuffix(real, ".js")) {
			return []string{node, real}, nil
		}
		return []string{p}, nil
	}
	return nil, errors.New("spritzer not found: install it (npm ci && npm pack in a checkout of spritzer, then npm install --save-dev PATH/spritzer-emulator-*.tgz: the package " + packageName + ", found under node_modules/), or set SPRITZER_BIN to its bin/spritzer.mjs, or SPRITZER_CMD to the command that starts it")
}

// packageName is the npm package that holds the spritzer command (spritzer on npm is an unrelated package).
const packageName = "spritzer-emulator"

// scriptIn is dir/node_modules/spritzer-emulator/bin/spritzer.mjs, or dir/bin/spritzer.mjs in a checkout of
// spritzer (its package.json names spritzer-emulator), or "".
func scriptIn(dir string) string {
	installed := filepath.Join(dir, "node_modules", packageName, "bin", "spritzer.mjs")
	if _, err := os.Stat(installed); err == nil {
		return installed
	}
	own := filepath.Join(dir, "bin", "spritzer.mjs")
	if _, err := os.Stat(own); err != nil {
		return ""
	}
	var pkg struct {
		Name string `json:"name"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil && json.Unmarshal(b, &pkg) == nil && pkg.Name == packageName {
		return own
	}
	return ""
}
