//! Streaming: a document whose root holds many repeated records, read one typed record at a
//! time in bounded memory, the rest of the document still checked.

use super::{Cursor, Error, Fallback, Scanner, Source};

/// A root element whose content is one repeated element (its records), as generated code
/// describes it: the steps [`Records`] takes, written once for both sources.
pub trait RecordStream {
    /// The value of one record.
    type Record;

    /// Reads the prolog and the root's start tag (checking its name and attributes) and
    /// moves to its first child: `true` at a child's start tag, `false` past the root's end
    /// tag.
    fn open<S: Source>(c: &mut S) -> Result<bool, S::Error>;

    /// The most records the root may hold (`None`: unbounded).
    const MAX: Option<usize>;

    /// Whether the current child is a record.
    fn at_record<S: Source>(c: &S) -> bool;

    /// Reads the record at the current child, to its end tag.
    fn record<S: Source>(c: &mut S) -> Result<Self::Record, S::Error>;

    /// After the last record (`count` of them; `more`: the source is at another child):
    /// checks the count and that nothing else follows, and reads to the end of the document.
    fn close<S: Source>(c: &mut S, more: bool, count: usize) -> Result<(), S::Error>;
}

/// Where a [`Records`] iterator is.
enum State<'a> {
    /// On the fast path; `None` before the root was opened, else whether the source is at a
    /// child.
    Fast(Box<Scanner<'a>>, Option<bool>),
    /// On the general path, the scanner having fallen back.
    General(Box<Cursor<'a>>, bool),
    Done,
}

/// The records of a document, one at a time: an iterator over
/// `Result<R::Record, Error>` that ends after the document's end was checked (or after the
/// first error). Memory holds one record at a time, whatever the document's size.
///
/// It reads with the [`Scanner`] and, where that falls back, reads the document again with
/// the [`Cursor`], skipping the records it already gave; so errors, with their positions,
/// are the cursor's, as for a whole document.
pub struct Records<'a, R: RecordStream> {
    bytes: &'a [u8],
    state: State<'a>,
    /// Records given so far.
    count: usize,
    stream: std::marker::PhantomData<fn() -> R>,
}

impl<'a, R: RecordStream> Records<'a, R> {
    /// The records of the document in `bytes`.
    pub fn new(bytes: &'a [u8]) -> Records<'a, R> {
        Records {
            bytes,
            state: State::Fast(Box::new(Scanner::new(bytes)), None),
            count: 0,
            stream: std::marker::PhantomData,
        }
    }

    /// One step on either path, the root open and `more` telling whether the source is at a
    /// child: the next record, or the end checked (`None`).
    fn step<S: Source>(
        c: &mut S,
        more: &mut bool,
        count: usize,
    ) -> Result<Option<R::Record>, S::Error> {
        if *more && R::MAX.map_or(true, |m| count < m) && R::at_record(c) {
            let r = R::record(c)?;
            *more = c.child()?;
            return Ok(Some(r));
        }
        R::close(c, *more, count)?;
        Ok(None)
    }

    /// One step on the fast path, opening the root first (`more` is `None` until then).
    fn fast(
        c: &mut Scanner<'a>,
        more: &mut Option<bool>,
        count: usize,
    ) -> Result<Option<R::Record>, Fallback> {
        let at = match more {
            Some(m) => m,
            None => more.insert(R::open(c)?),
        };
        Self::step(c, at, count)
    }

    /// Goes on with the cursor where the scanner fell back: the step the scanner could not
    /// take, the cursor at the same record.
    fn fall_back(&mut self) -> Result<Option<R::Record>, Error> {
        let (mut c, mut more) = self.general()?;
        let r = Self::step(&mut *c, &mut more, self.count);
        self.state = State::General(c, more);
        r
    }

    /// The general path from the start, past the `count` records already given.
    fn general(&self) -> Result<(Box<Cursor<'a>>, bool), Error> {
        let mut c = Box::new(Cursor::new(self.bytes));
        let mut more = R::open(&mut *c)?;
        for _ in 0..self.count {
            // The scanner read these: the cursor reads them the same way.
            R::record(&mut *c)?;
            more = c.child()?;
        }
        Ok((c, more))
    }
}

impl<R: RecordStream> Iterator for Records<'_, R> {
    type Item = Result<R::Record, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let step = match &mut self.state {
            State::Fast(c, more) => match Self::fast(c, more, self.count) {
                Ok(r) => Ok(r),
                Err(Fallback) => self.fall_back(),
            },
            State::General(c, more) => Self::step(&mut **c, more, self.count),
            State::Done => return None,
        };
        match step {
            Ok(Some(r)) => {
                self.count += 1;
                Some(Ok(r))
            }
            Ok(None) => {
                self.state = State::Done;
                None
            }
            Err(e) => {
                self.state = State::Done;
                Some(Err(e))
            }
        }
    }
}
