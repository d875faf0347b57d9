//! A private MariaDB server (the oracle): `mariadb-install-db` into a
//! temporary directory, then `mariadbd` on a free loopback port, root
//! without a password and no anonymous accounts; stopped when dropped.
use super::{text, tool};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct MariaDb {
    child: Child,
    pub port: u16,
    _dir: tempfile::TempDir,
}

impl MariaDb {
    pub fn start() -> MariaDb {
        Self::start_env(&[])
    }

    /// A server whose time zone (the system's, `TZ`) is `tz`.
    #[allow(dead_code)]
    pub fn start_in_zone(tz: &str) -> MariaDb {
        Self::start_env(&[("TZ", tz)])
    }

    fn start_env(env: &[(&str, &str)]) -> MariaDb {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        // A temporary directory of its own: a starting server removes the
        // temporary files it finds there, other servers' included.
        let tmp = dir.path().join("tmp");
        std::fs::create_dir(&tmp).unwrap();
        let install = Command::new(tool("mariadb-install-db"))
            .args([
                "--no-defaults",
                "--user=root",
                "--auth-root-authentication-method=normal",
            ])
            .arg(format!("--datadir={}", data.display()))
            .arg(format!("--tmpdir={}", tmp.display()))
            .output()
            .unwrap();
        assert!(install.status.success(), "{}", text(&install.stderr));
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        // /usr/sbin is not on every user's PATH.
        let mariadbd = if std::path::Path::new("/usr/sbin/mariadbd").exists() {
            "/usr/sbin/mariadbd"
        } else {
            tool("mariadbd")
        };
        let child = Command::new(mariadbd)
            .envs(env.iter().copied())
            .args(["--no-defaults", "--user=root", "--bind-address=127.0.0.1"])
            // The character set and collation lineardb announces, as
            // MariaDB's own packages configure it.
            .args([
                "--character-set-server=utf8mb4",
                "--collation-server=utf8mb4_general_ci",
            ])
            .arg(format!("--datadir={}", data.display()))
            .arg(format!("--tmpdir={}", tmp.display()))
            .arg(format!("--socket={}", dir.path().join("sock").display()))
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start mariadbd");
        let server = MariaDb {
            child,
            port,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let url = format!("mysql://root@127.0.0.1:{port}/");
            if let Ok(mut c) = mysql::Conn::new(mysql::Opts::from_url(&url).unwrap()) {
                use mysql::prelude::Queryable;
                c.query_drop("DELETE FROM mysql.global_priv WHERE User = ''; FLUSH PRIVILEGES")
                    .unwrap();
                return server;
            }
            assert!(Instant::now() < deadline, "mariadbd did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for MariaDb {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
