//go:build linux || darwin

// Command pulumi-resource-voiceplatform is the release's plugin executable on Linux and macOS: a
// launcher that hands the engine the port of a provider served by the shared server beside it
// (pulumi-voiceplatform-server, the Node.js single executable; provider/plugin/shared-server.ts),
// which serves every provider of one engine run, starting that server when it is not running.
// The engine starts one plugin process per provider and waits for each before loading the next:
// this process starts like any Go program, and the providers after the first are answered by a
// process that is already warm. It holds no provider logic.
//
// PULUMI_VOICEPLATFORM_SHARED_SERVER=false runs the server as this process instead, one per
// provider, as the other platforms' archives do; so does a socket folder that is not the user's
// alone (one line on stderr says why and what to do).
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const (
	serverName = "pulumi-voiceplatform-server"
	// How long a starting server may take to listen, and a listening one to answer a port.
	startDeadline = 60 * time.Second
)

var portLine = regexp.MustCompile(`^[0-9]{1,5}$`)

// version is the release's, set when it builds the launcher (-ldflags "-X main.version=...").
var version = "(not set by a release)"

const (
	// Hex digits of a run's key in its socket's name: 64 bits, for one user's runs at a time.
	keyLength = 16
	// The longest socket path macOS takes (its sun_path is 104 bytes with the final NUL).
	maxSocketPath = 103
)

func main() {
	args := os.Args[1:]
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fail("cannot find its own executable: %v", err)
	}
	server := filepath.Join(filepath.Dir(exe), serverName)
	// `--version`: what this is, then the server says what it is.
	if len(args) == 1 && args[0] == "--version" {
		fmt.Printf("pulumi-resource-voiceplatform %s: native launcher (%s/%s) sharing %s between the providers of an engine run\n",
			version, runtime.GOOS, runtime.GOARCH, serverName)
		runAlone(server, args)
	}
	if os.Getenv("PULUMI_VOICEPLATFORM_SHARED_SERVER") == "false" {
		runAlone(server, args)
	}
	dir, err := privateFolder()
	if err != nil {
		// Another user could listen there first, or read what goes through: never share through it.
		fmt.Fprintf(os.Stderr, "pulumi-resource-voiceplatform: %v\n", err)
		runAlone(server, args)
	}
	if dir == "" {
		runAlone(server, args)
	}
	socket := filepath.Join(dir, runKey(exe, args)+".sock")
	conn, err := connectOrStart(server, socket, args)
	if err != nil {
		fail("%v", err)
	}
	port, err := readLine(conn, startDeadline)
	if err != nil || !portLine.MatchString(port) {
		fail("the shared server gave no port (%q, %v)", port, err)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Println(port)
	go exitWhenOrphaned()
	// The provider lives as long as this connection: the engine ends it by ending this process.
	_, _ = io.Copy(io.Discard, conn)
	fail("the shared server %s stopped", server)
}

// runAlone runs the server as this process: a process for this provider alone.
func runAlone(server string, args []string) {
	err := syscall.Exec(server, append([]string{server}, args...), os.Environ())
	fail("cannot run %s: %v", server, err)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pulumi-resource-voiceplatform: "+format+"\n", args...)
	os.Exit(1)
}

// privateFolder is where the user's shared servers listen: a folder only the user can enter, in
// the runtime folder where there is one, else in the temporary folder, else in /tmp: the first
// whose socket paths fit in a Unix socket's address (104 bytes on macOS, 108 on Linux). "" when
// none does: the server then runs as this process.
func privateFolder() (string, error) {
	uid := os.Getuid()
	for _, base := range []string{os.Getenv("XDG_RUNTIME_DIR"), os.TempDir(), "/tmp"} {
		info, err := os.Stat(base)
		if base == "" || !filepath.IsAbs(base) || err != nil || !info.IsDir() {
			continue
		}
		dir := filepath.Join(base, "pvp-"+strconv.Itoa(uid))
		if len(dir)+1+keyLength+len(".sock") > maxSocketPath {
			continue
		}
		return dir, checkPrivate(dir, uid)
	}
	return "", nil
}

// checkPrivate makes `dir` (mode 0700) or checks that it is a folder of the user's that no one
// else can enter; the error says what is wrong with it, that each provider runs in a process of
// its own instead, and how to share one again.
func checkPrivate(dir string, uid int) error {
	problem := folderProblem(dir, uid)
	if problem == "" {
		return nil
	}
	return fmt.Errorf("%s %s, so each provider runs in a process of its own (slower to start): "+
		"remove it (or set TMPDIR or XDG_RUNTIME_DIR to a folder only you can enter) to share one "+
		"process per run again, or set PULUMI_VOICEPLATFORM_SHARED_SERVER=false to say nothing", dir, problem)
}

// folderProblem is why `dir` cannot hold the user's sockets, or "" when it can.
func folderProblem(dir string, uid int) string {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Sprintf("cannot be made (%v)", err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Sprintf("cannot be read (%v)", err)
	}
	stat, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case info.Mode()&os.ModeSymlink != 0:
		return "is a symbolic link, not a folder"
	case !info.IsDir() || !ok:
		return "is not a folder"
	case int(stat.Uid) != uid:
		return fmt.Sprintf("belongs to another user (uid %d), not to this one (uid %d)", stat.Uid, uid)
	case info.Mode().Perm() != 0o700:
		return fmt.Sprintf("has mode %04o: others can enter it (it must be 0700)", info.Mode().Perm())
	}
	return ""
}

// runKey names the server of one engine run: providers share a server only when everything that
// could make their processes differ is the same.
func runKey(exe string, args []string) string {
	cwd, _ := os.Getwd()
	env := os.Environ()
	sort.Strings(env)
	parts := append([]string{"v1", exe, strconv.Itoa(os.Getuid()), cwd}, args...)
	parts = append(append(parts, "\x00env"), env...)
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:])[:keyLength]
}

// connectOrStart connects to the run's server, starting it first when none listens.
func connectOrStart(server, socket string, args []string) (net.Conn, error) {
	for attempt := 0; attempt < 3; attempt++ {
		if conn, err := net.Dial("unix", socket); err == nil {
			return conn, nil
		}
		if err := startServer(server, socket, args); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("the shared server at %s did not take connections", socket)
}

// startServer starts the server in a session of its own (the engine kills each plugin's process
// group; the server outlives the launcher that started it) and waits until it listens.
func startServer(server, socket string, args []string) error {
	logPath := fmt.Sprintf("%s.%d.log", strings.TrimSuffix(socket, ".sock"), os.Getpid())
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer os.Remove(logPath)
	cmd := exec.Command(server, append([]string{"--shared", socket}, args...)...)
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	logFile.Close()
	if err != nil {
		return fmt.Errorf("cannot start %s: %v", server, err)
	}
	// Wait closes the pipe once the server exits, and a server that finds the socket taken says so
	// and exits at once: reap it only after its line is read.
	line, err := readLine(out, startDeadline)
	go func() { _ = cmd.Wait() }()
	if line == "ready" || line == "taken" {
		return nil
	}
	said, _ := os.ReadFile(logPath)
	return fmt.Errorf("the shared server did not start (%v): %s", err, strings.TrimSpace(string(said)))
}

// readLine reads one line from `r`, waiting at most `deadline` for it.
func readLine(r io.Reader, deadline time.Duration) (string, error) {
	type result struct {
		line string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		line, err := bufio.NewReader(r).ReadString('\n')
		got <- result{strings.TrimSpace(line), err}
	}()
	select {
	case r := <-got:
		return r.line, r.err
	case <-time.After(deadline):
		return "", fmt.Errorf("no answer within %s", deadline)
	}
}

// exitWhenOrphaned ends the launcher, and so its provider, when the engine is gone without ending
// it: nothing else would.
func exitWhenOrphaned() {
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			os.Exit(0)
		}
	}
}
