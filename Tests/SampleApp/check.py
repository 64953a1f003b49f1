#!/usr/bin/env python3
"""Uses the sample app (Samples/TabBarApp) as a person would, in real processes: taps while
another process holds the database's write lock (the cells to reload known at the tap, a
sticky copy of the bar showing the same), a re-tap, a drag, close and reopen, an edit made
by the `tabstore` command, the app suspended and back, a tap kept past the busy timeout and
saved after the release, one cancelled, a suspension that does not wait for the lock, a
second launch, and a container it cannot use. Each line the app must draw is waited for,
in order. Run by .ci/run after `swift build`."""
import os
import select
import stat
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                     capture_output=True, text=True).stdout.strip()
APP = os.path.join(BIN, "TabStoreSampleApp")
TABSTORE = os.path.join(BIN, "tabstore")


def fail(message, transcript=()):
    sys.exit("sample app: " + message + "".join("\n  | " + line for line in transcript))


class App:
    """The app, its standard input a pipe we type into, its output read line by line."""

    def __init__(self, container):
        self.process = subprocess.Popen([APP, container], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT)
        self.transcript = []
        self.unread = b""

    def type(self, line):
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def next_line(self, deadline):
        """The next line drawn, or None at the deadline or the end."""
        while b"\n" not in self.unread:
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(self.process.stdout.fileno(), 65536) if ready else b""
            if not chunk:
                return None
            self.unread += chunk
        line, self.unread = self.unread.split(b"\n", 1)
        self.transcript.append(line.decode())
        return self.transcript[-1]

    def expect(self, line, within=10.0):
        """Waits for `line`, skipping the lines drawn before it (edits in flight)."""
        deadline = time.monotonic() + within
        while True:
            got = self.next_line(deadline)
            if got == line:
                return
            if got is None:
                fail("never drew " + repr(line), self.transcript)

    def finish(self):
        self.process.stdin.close()
        while self.next_line(time.monotonic() + 30) is not None:
            pass
        if self.process.wait(timeout=30) != 0:
            fail("exited with %d" % self.process.returncode, self.transcript)
        if any(line.startswith("sticky: ") for line in self.transcript):
            fail("the sticky copy of the bar showed another state", self.transcript)


class WriteLock:
    """A sqlite3 process holding the database's write lock until released."""

    def __init__(self, path):
        self.process = subprocess.Popen(["sqlite3", path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.process.stdin.write(".timeout 10000\nBEGIN IMMEDIATE;\n.print locked\n")
        self.process.stdin.flush()
        if self.process.stdout.readline().strip() != "locked":
            fail("sqlite3 could not take the write lock")

    def release(self):
        self.process.stdin.write("COMMIT;\n.quit\n")
        self.process.stdin.flush()
        self.process.wait(timeout=10)


def tabstore(database, *arguments):
    """What another program sees and does: the `tabstore` command."""
    if GRDB_APP:
        # The GRDB comparison keeps its own schema: sqlite3 stands in for the command.
        if arguments[0] == "restore":
            sql = "SELECT position FROM tab WHERE isSelected"
        else:
            sql = "UPDATE tab SET isSelected = (title = '%s')" % arguments[2]
        return subprocess.run(["sqlite3", database, sql], check=True, capture_output=True, text=True).stdout.strip()
    return subprocess.run([TABSTORE, "--db", database] + list(arguments), check=True,
                          capture_output=True, text=True).stdout.strip()


# `check.py --app PATH` drives another build of the same app instead (the GRDB comparison,
# Samples/GRDBComparison), which says its errors in its own words.
GRDB_APP = sys.argv[2] if len(sys.argv) == 3 and sys.argv[1] == "--app" else None
if GRDB_APP:
    APP = GRDB_APP


def later_taps(app, database):
    """Taps under a lock held past the busy timeout: kept and saved once it is released, or
    cancelled; and a suspension that does not wait for another process's lock."""
    # Past the busy timeout (5 s) the tap is still shown, waiting, and saved after the release.
    lock = WriteLock(database)
    app.type("tap All menu")
    app.expect("[All menu] | Reviews | Photos | Home  showing /menu (saving)")
    app.expect("[All menu] | Reviews | Photos | Home  showing /menu (waiting for another app)", within=15)
    if tabstore(database, "restore", "main") != "3":
        fail("a tap was saved while the lock was held", app.transcript)
    lock.release()
    app.expect("[All menu] | Reviews | Photos | Home  showing /menu")
    if tabstore(database, "restore", "main") != "0":
        fail("the waiting tap was not saved after the release", app.transcript)

    # A tap that waits can be cancelled: the bar goes back, and nothing is saved.
    lock = WriteLock(database)
    app.type("tap Photos")
    app.expect("All menu | Reviews | [Photos] | Home  showing /photos (waiting for another app)", within=15)
    app.type("cancel")
    app.expect("cancelled 1 waiting")
    app.expect("[All menu] | Reviews | Photos | Home  showing /menu")
    lock.release()
    # Every write the app asked for before "settle" has ended once it says so.
    app.type("settle")
    app.expect("settled")
    if tabstore(database, "restore", "main") != "0":
        fail("a cancelled tap was saved", app.transcript)

    # Suspending while a tap waits for another process's lock does not wait for the lock;
    # the tap stays shown and is saved after the app is back.
    lock = WriteLock(database)
    app.type("tap Reviews")
    app.expect("All menu | [Reviews] | Photos | Home  showing /reviews (saving)")
    app.expect("All menu | [Reviews] | Photos | Home  showing /reviews (waiting for another app)", within=15)
    app.type("background")
    app.expect("suspended", within=2)
    if lock.process.poll() is not None:
        fail("the lock was gone before the app said it was suspended", app.transcript)
    lock.release()
    # A window in which a write must not happen: nothing marks that none is coming, so
    # this wait is the check itself.
    time.sleep(0.5)
    if tabstore(database, "restore", "main") != "0":
        fail("a tap was saved while the app was suspended", app.transcript)
    app.type("foreground")
    app.expect("All menu | [Reviews] | Photos | Home  showing /reviews")
    if tabstore(database, "restore", "main") != "1":
        fail("the tap made before suspending was not saved on return", app.transcript)
    app.type("quit")
    app.finish()


def main():
    if not GRDB_APP:
        subprocess.run(["swift", "build", "--product", "TabStoreSampleApp"], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["swift", "build", "--product", "tabstore"], cwd=ROOT, check=True, capture_output=True)
    with tempfile.TemporaryDirectory() as folder:
        container = os.path.join(folder, "group.com.example.tabs")
        database = os.path.join(container, "Library/Application Support/tabs.sqlite")

        # A first launch makes the folders and the default tabs, shown before any wait.
        app = App(container)
        app.expect("restored Home at 0")
        app.expect("[Home] | All menu | Reviews | Photos  showing /home")
        for made in [container, container + "/Library", container + "/Library/Application Support"]:
            if stat.S_IMODE(os.stat(made).st_mode) != 0o700:
                fail("%s is not mode 0700" % made)

        # Another process holds the write lock: a tap shows at once, with the cells to
        # reload (whole tabs: their icons) known at the tap; the sticky copy of the bar shows
        # the same (a "sticky:" line would say it differs); a re-tap on the sticky copy is
        # answered at once; and the tap is saved when the lock is released.
        lock = WriteLock(database)
        app.type("tap Reviews")
        if not GRDB_APP:
            app.expect("reload 0 Home* (house) -> 0 Home (house), 2 Reviews (star) -> 2 Reviews* (star)")
        app.expect("Home | All menu | [Reviews] | Photos  showing /reviews (saving)")
        app.type("tap Reviews" if GRDB_APP else "sticky-tap Reviews")
        app.expect("Reviews scrolled to the top")
        if tabstore(database, "restore", "main") != "0":
            fail("the tap was saved while the lock was held", app.transcript)
        lock.release()
        app.expect("Home | All menu | [Reviews] | Photos  showing /reviews")
        if tabstore(database, "restore", "main") != "2":
            fail("the tap was not saved", app.transcript)

        # Drag, close, reopen; and an edit made by another program shows up.
        app.type("move 0 4")
        app.expect("All menu | [Reviews] | Photos | Home  showing /reviews")
        app.type("close Reviews")
        app.expect("All menu | [Photos] | Home  showing /photos")
        app.type("reopen")
        app.expect("All menu | [Reviews] | Photos | Home  showing /reviews")
        tabstore(database, "select", "main", "Photos")
        app.expect("All menu | Reviews | [Photos] | Home  showing /photos")

        # Suspended, the app takes no write lock: a tap shows, and is saved once it is back.
        app.type("background")
        app.expect("suspended")
        app.type("tap Home")
        app.expect("All menu | Reviews | Photos | [Home]  showing /home (saving)")
        # A window in which a write must not happen: nothing marks that none is coming.
        time.sleep(0.5)
        if tabstore(database, "restore", "main") != "2":
            fail("a tap was saved while the app was suspended", app.transcript)
        app.type("foreground")
        app.expect("All menu | Reviews | Photos | [Home]  showing /home")

        if GRDB_APP:
            # A tap the store cannot save (the lock is held past the busy timeout) is taken back.
            lock = WriteLock(database)
            app.type("tap All menu")
            app.expect("[All menu] | Reviews | Photos | Home  showing /menu (saving)")
            app.expect("All menu | Reviews | Photos | [Home]  showing /home", within=15)
            said = app.next_line(time.monotonic() + 10) or ""
            if not said.startswith("not saved: "):
                fail("the refusal was not said", app.transcript)
            print("sample app: the refusal said: " + said)
            lock.release()
            app.type("quit")
            app.finish()
            app = App(container)
            app.expect("restored Home at 3")
        else:
            later_taps(app, database)
            app = App(container)
            app.expect("restored Reviews at 1")
        app.type("quit")
        app.finish()

        # A container the app cannot use: one line that says why, exit 1.
        blocked = os.path.join(folder, "blocked")
        open(blocked, "w").close()
        result = subprocess.run([APP, blocked], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        said = "cannot open the tabs: cannot open database %s/Library/Application Support/tabs.sqlite: " \
               "a part of its folder path is a file, not a folder\n" % blocked
        if GRDB_APP and result.stdout.startswith("cannot open the tabs: "):
            print("sample app: the blocked container said: " + result.stdout.strip())
        elif result.returncode != 1 or result.stdout != said:
            fail("a blocked container gave %d: %r" % (result.returncode, result.stdout))
    print("sample app: every step drawn as expected")


main()
