//! TLS with rustls: the server's certificate and key, given as PEM files
//! (`--ssl-cert`, `--ssl-key`) or made on first start (a self-signed
//! certificate kept in the data directory and used from then on), and what
//! the handshake needs to switch a connection to TLS.
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::ServerConfig;
use std::io;
use std::path::Path;
use std::sync::Arc;

/// The server's TLS settings.
#[derive(Clone)]
pub struct Tls {
    pub(crate) config: Arc<ServerConfig>,
    /// `require_secure_transport`: logins without TLS are refused (3159).
    pub(crate) required: bool,
}

/// File names of the certificate made on first start.
const MADE_CERT: &str = "server-cert.pem";
const MADE_KEY: &str = "server-key.pem";

fn invalid(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

impl Tls {
    /// Loads `cert` and `key`, or without them the certificate in
    /// `datadir`, made there (self-signed, for `localhost`) if missing.
    pub fn load_or_make(
        cert: Option<&Path>,
        key: Option<&Path>,
        datadir: &Path,
        required: bool,
    ) -> io::Result<Tls> {
        let (cert, key) = match (cert, key) {
            (Some(c), Some(k)) => (c.to_path_buf(), k.to_path_buf()),
            (None, None) => {
                let (c, k) = (datadir.join(MADE_CERT), datadir.join(MADE_KEY));
                if !c.exists() || !k.exists() {
                    let made = rcgen::generate_simple_self_signed(vec![
                        "localhost".to_string(),
                        "127.0.0.1".to_string(),
                    ])
                    .map_err(invalid)?;
                    std::fs::write(&c, made.cert.pem())?;
                    write_private(&k, made.key_pair.serialize_pem().as_bytes())?;
                }
                (c, k)
            }
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "--ssl-cert and --ssl-key go together",
                ))
            }
        };
        let certs: Vec<CertificateDer<'static>> =
            rustls_pemfile::certs(&mut io::BufReader::new(std::fs::File::open(&cert)?))
                .collect::<Result<_, _>>()?;
        let key: PrivateKeyDer<'static> =
            rustls_pemfile::private_key(&mut io::BufReader::new(std::fs::File::open(&key)?))?
                .ok_or_else(|| invalid(format!("no private key in {}", key.display())))?;
        let config =
            ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .map_err(invalid)?
                .with_no_client_auth()
                .with_single_cert(certs, key)
                .map_err(invalid)?;
        Ok(Tls {
            config: Arc::new(config),
            required,
        })
    }
}

/// Writes a key readable by its owner only.
fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(bytes)
}
