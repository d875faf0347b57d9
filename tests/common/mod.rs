//! A real `lineardb serve` on a free loopback port with its own data
//! directory, stopped (SIGTERM, then waited for) when dropped.
#![allow(dead_code)]
pub mod differential;
pub mod mariadb;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub struct Server {
    child: Child,
    killed: bool,
    pub port: u16,
    datadir: PathBuf,
    _dir: Option<tempfile::TempDir>,
}

impl Server {
    pub fn start() -> Server {
        Self::start_with(&[])
    }

    pub fn start_with(extra: &[&str]) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let mut server = Self::start_at(&dir.path().join("data"), extra);
        server._dir = Some(dir);
        server
    }

    /// A server whose time zone (the system's, `TZ`) is `tz`.
    pub fn start_in_zone(tz: &str) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let mut server = Self::start_at_env(&dir.path().join("data"), &[], &[("TZ", tz)]);
        server._dir = Some(dir);
        server
    }

    /// A server on the data directory `datadir` (not removed when dropped);
    /// returns once it listens.
    pub fn start_at(datadir: &Path, extra: &[&str]) -> Server {
        Self::start_at_env(datadir, extra, &[])
    }

    /// [`Server::start_at`] with environment variables `env` set.
    pub fn start_at_env(datadir: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        // Port 0: the server binds a free port itself and prints it, so
        // servers started side by side never race for one.
        let mut child = Command::new(env!("CARGO_BIN_EXE_lineardb"))
            .envs(env.iter().copied())
            .args(["serve", "--port", "0", "--pool-mib", "256"])
            .args(extra)
            .arg("--datadir")
            .arg(datadir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start lineardb serve");
        let mut log = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        let port = loop {
            line.clear();
            let n = log.read_line(&mut line).unwrap();
            assert!(n > 0, "lineardb serve exited before listening");
            eprint!("{line}");
            if let Some((_, addr)) = line.trim().split_once(" on ") {
                break addr.rsplit(':').next().unwrap().parse::<u16>().unwrap();
            }
        };
        // Keep draining the server's log so it never blocks on the pipe.
        std::thread::spawn(move || {
            for l in log.lines().map_while(Result::ok) {
                eprintln!("{l}");
            }
        });
        Server {
            child,
            killed: false,
            port,
            datadir: datadir.to_path_buf(),
            _dir: None,
        }
    }

    pub fn datadir(&self) -> PathBuf {
        self.datadir.clone()
    }

    pub fn url(&self, db: &str) -> String {
        format!("mysql://root@127.0.0.1:{}/{db}", self.port)
    }

    /// The `mysql` command-line client with this server's address.
    pub fn mysql_cli(&self) -> Command {
        let mut c = Command::new(tool("mysql"));
        c.args([
            "-h",
            "127.0.0.1",
            "-P",
            &self.port.to_string(),
            "-u",
            "root",
        ]);
        c
    }

    /// Runs SQL through the `mysql` client; panics on failure.
    pub fn sql(&self, sql: &str) -> String {
        let out = self.mysql_cli().args(["-e", sql]).output().unwrap();
        assert!(out.status.success(), "{sql}: {}", text(&out.stderr));
        text(&out.stdout)
    }
}

impl Server {
    /// Kills the server with SIGKILL (a crash: nothing is flushed) and
    /// waits until it is gone.
    pub fn kill9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.killed = true;
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.killed {
            return;
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A program the server tests drive (`.ci/run` installs them). Missing
/// tools fail the test with the fix, rather than skipping it.
pub fn tool(name: &str) -> &str {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "`{name}` is not installed: `apt-get install -y sysbench mariadb-client mariadb-server` (see .ci/run)"
    );
    name
}

pub fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

pub fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    out
}
