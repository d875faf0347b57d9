//! What made a shared write: the sources the audit counts separately.

/// What made a shared write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum Source {
    /// Taking or releasing a latch in shared mode.
    LatchShared,
    /// Taking, releasing or marking a latch in exclusive mode.
    LatchExclusive,
    /// A waiter flagging a latch word as having parked threads.
    LatchPark,
    /// Locking a [`crate::Mutex`] (acquire and release: two writes).
    Mutex,
    /// A store to a [`crate::SharedWord`] or [`crate::SharedFlag`].
    Word,
}

pub const SOURCE_COUNT: usize = 5;

impl Source {
    pub const ALL: [Source; SOURCE_COUNT] = [
        Source::LatchShared,
        Source::LatchExclusive,
        Source::LatchPark,
        Source::Mutex,
        Source::Word,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Source::LatchShared => "latch/shared",
            Source::LatchExclusive => "latch/exclusive",
            Source::LatchPark => "latch/park",
            Source::Mutex => "mutex",
            Source::Word => "shared_word",
        }
    }
}
