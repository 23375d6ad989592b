// Package example shows a TestMain that runs spritzer for a Go test binary: it starts
// `npx spritzer --addr 127.0.0.1:0` (or the command in SPRITZER_CMD), reads the URL from the line the
// server prints when ready, exports SPRITES_BASE_URL and SPRITES_TOKEN for sprites-go, runs the tests and
// stops the server. See docs/testing.md (this file is not compiled by spritzer's CI: Go is not on its machines).
package example

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

var ready = regexp.MustCompile(`spritzer listening on (http://\S+)`)

func TestMain(m *testing.M) {
	const token = "go-test-token"
	args := strings.Fields(os.Getenv("SPRITZER_CMD"))
	if len(args) == 0 {
		args = []string{"npx", "spritzer"}
	}
	cmd := exec.Command(args[0], append(args[1:], "--addr", "127.0.0.1:0", "--token", token)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot start spritzer:", err)
		os.Exit(1)
	}
	baseURL := ""
	lines := bufio.NewScanner(out)
	for baseURL == "" && lines.Scan() {
		if m := ready.FindStringSubmatch(lines.Text()); m != nil {
			baseURL = m[1]
		}
	}
	go func() { // keep draining the log so the server never blocks on a full pipe
		for lines.Scan() {
		}
	}()
	if baseURL == "" {
		fmt.Fprintln(os.Stderr, "spritzer exited before it was ready")
		os.Exit(1)
	}
	os.Setenv("SPRITES_BASE_URL", baseURL)
	os.Setenv("SPRITES_TOKEN", token)
	code := m.Run()
	_ = cmd.Process.Signal(os.Interrupt)
	_ = cmd.Wait()
	os.Exit(code)
}

func TestHealth(t *testing.T) {
	res, err := http.Get(os.Getenv("SPRITES_BASE_URL") + "/_spritzer/health")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("health: %d", res.StatusCode)
	}
	// With sprites-go, give SPRITES_TOKEN as the token and SPRITES_BASE_URL as the client's base URL option.
}
