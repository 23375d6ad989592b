package spritzertest_test

// The helper's guarantees, checked from outside: this test binary runs itself again as "a user's project"
// (SPRITZERTEST_PROJECT=main uses spritzertest.Main, =start uses spritzertest.Start(t)), and after a pass, a
// failure, Ctrl-C (SIGINT to the project's process group) or a SIGKILL, `ps` shows no process of the server it
// started and `ss` no listener on its port.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"spritzer/spritzertest"
)

func TestMain(m *testing.M) {
	if os.Getenv("SPRITZERTEST_PROJECT") == "main" {
		spritzertest.Main(m)
		return
	}
	os.Exit(m.Run())
}

type probe struct {
	PID     int    `json:"pid"`
	BaseURL string `json:"base_url"`
	Token   string `json:"token"`
}

// TestProject is the user's test; it runs only inside the project runs below.
func TestProject(t *testing.T) {
	mode := os.Getenv("SPRITZERTEST_PROJECT")
	if mode == "" {
		t.Skip("runs as the user's project of the tests below")
	}
	var s *spritzertest.Server
	if mode == "main" {
		s = spritzertest.Shared()
		if os.Getenv("SPRITES_BASE_URL") != s.BaseURL || os.Getenv("SPRITES_TOKEN") != s.Token {
			t.Fatal("Main did not export SPRITES_BASE_URL and SPRITES_TOKEN")
		}
	} else {
		s = spritzertest.Start(t)
	}
	b, _ := json.Marshal(probe{s.PID, s.BaseURL, s.Token})
	if err := os.WriteFile(os.Getenv("SPRITZERTEST_PROBE"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, s.BaseURL+"/v1/sprites", strings.NewReader(`{"name":"go-demo"}`))
	req.Header.Set("Authorization", "Bearer "+s.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", res.StatusCode)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	switch os.Getenv("SPRITZERTEST_END") {
	case "fail":
		t.Fatal("this test fails on purpose")
	case "hang":
		time.Sleep(2 * time.Minute) // interrupted from outside before this ends
	}
}

// runProject starts this test binary as the user's project, in a process group of its own.
func runProject(t *testing.T, project, end string) (*exec.Cmd, string, *strings.Builder) {
	t.Helper()
	probeFile := filepath.Join(t.TempDir(), "probe.json")
	cmd := exec.Command(os.Args[0], "-test.run=^TestProject$", "-test.v")
	cmd.Env = append(os.Environ(), "SPRITZERTEST_PROJECT="+project, "SPRITZERTEST_END="+end, "SPRITZERTEST_PROBE="+probeFile)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	return cmd, probeFile, &out
}

func readProbe(t *testing.T, file string, cmd *exec.Cmd) probe {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if b, err := os.ReadFile(file); err == nil && len(b) > 0 {
			var p probe
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
		if time.Now().After(deadline) {
			t.Fatal("the project's test never started")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// leftovers is what ps and ss still show of a server: processes in its group or carrying its token, and
// listeners on its port.
func leftovers(t *testing.T, p probe) []string {
	t.Helper()
	u, err := url.Parse(p.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	ps, err := exec.Command("ps", "-eo", "pid=,pgid=,stat=,args=").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(strings.NewReader(string(ps)))
	for lines.Scan() {
		f := strings.Fields(lines.Text())
		if len(f) >= 3 && !strings.HasPrefix(f[2], "Z") && (f[1] == fmt.Sprint(p.PID) || strings.Contains(lines.Text(), p.Token)) {
			left = append(left, "process: "+lines.Text())
		}
	}
	ss, err := exec.Command("ss", "-Hltn", "sport = :"+u.Port()).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(ss)), "\n") {
		if l != "" {
			left = append(left, "listener: "+l)
		}
	}
	return left
}

func assertGone(t *testing.T, p probe, grace time.Duration) {
	t.Helper()
	deadline := time.Now().Add(grace)
	for {
		left := leftovers(t, p)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("left behind after the project ended:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func exitCode(err error) int {
	if e, ok := err.(*exec.ExitError); ok {
		return e.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

func TestNothingLeftBehind(t *testing.T) {
	if os.Getenv("SPRITZERTEST_PROJECT") != "" {
		t.Skip("the project itself")
	}
	for _, project := range []string{"main", "start"} {
		t.Run(project+"/pass", func(t *testing.T) {
			cmd, file, out := runProject(t, project, "pass")
			if err := cmd.Wait(); err != nil {
				t.Fatalf("project failed: %v\n%s", err, out)
			}
			// the helper stopped the server before the project's binary exited: nothing to wait for
			assertGone(t, readProbe(t, file, cmd), 0)
		})
		t.Run(project+"/fail", func(t *testing.T) {
			cmd, file, out := runProject(t, project, "fail")
			if code := exitCode(cmd.Wait()); code != 1 || !strings.Contains(out.String(), "this test fails on purpose") {
				t.Fatalf("project exit %d, want 1:\n%s", code, out)
			}
			assertGone(t, readProbe(t, file, cmd), 0)
		})
		t.Run(project+"/interrupt", func(t *testing.T) {
			cmd, file, out := runProject(t, project, "hang")
			p := readProbe(t, file, cmd)
			time.Sleep(500 * time.Millisecond)
			if len(leftovers(t, p)) == 0 {
				t.Fatal("the server should be listening while the test runs")
			}
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) // what a terminal's Ctrl-C does to the foreground group
			if code := exitCode(cmd.Wait()); code == 0 {
				t.Fatalf("an interrupted project exited 0:\n%s", out)
			}
			assertGone(t, p, 0)
		})
	}
	t.Run("killed", func(t *testing.T) {
		cmd, file, _ := runProject(t, "start", "hang")
		p := readProbe(t, file, cmd)
		_ = cmd.Process.Kill() // no cleanup runs: the kernel's parent-death signal stops the server
		_ = cmd.Wait()
		assertGone(t, p, 20*time.Second)
	})
}

func TestNpxIsRefused(t *testing.T) {
	_, err := spritzertest.StartServer(spritzertest.Options{Command: []string{"npx", "spritzer"}})
	if err == nil || !strings.Contains(err.Error(), "does not pass SIGINT/SIGTERM") {
		t.Fatalf("npx: %v", err)
	}
}

func TestAServerThatCannotStartSaysWhy(t *testing.T) {
	_, err := spritzertest.StartServer(spritzertest.Options{Command: []string{"sh", "-c", "echo no engine like that; exit 3"}})
	if err == nil || !strings.Contains(err.Error(), "no engine like that") {
		t.Fatalf("want the server's output in the error, got %v", err)
	}
	// It exited at once: the error says so, with its code, and does not claim a start-up timeout ran out.
	first := strings.SplitN(err.Error(), "\n", 2)[0]
	if !strings.Contains(first, "exited with 3 before printing its ready line") || strings.Contains(first, "within") {
		t.Fatalf("want the exit and its code, got %q", first)
	}
}
