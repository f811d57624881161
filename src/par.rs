//! Data-parallel loops: rayon with the `parallel` feature (on by default), plain iterators
//! without it, so the engine alone builds without rayon's crates and runs on one thread. The
//! callers write rayon's method names either way.

#[cfg(feature = "parallel")]
pub(crate) use rayon::current_num_threads;
#[cfg(feature = "parallel")]
pub(crate) use rayon::join;
#[cfg(feature = "parallel")]
pub(crate) use rayon::prelude::*;

#[cfg(not(feature = "parallel"))]
pub(crate) use sequential::*;

#[cfg(not(feature = "parallel"))]
mod sequential {
    /// rayon's `join`: both closures, one after the other.
    pub(crate) fn join<A, B>(a: impl FnOnce() -> A, b: impl FnOnce() -> B) -> (A, B) {
        (a(), b())
    }

    pub(crate) trait ParSlice<T> {
        fn par_iter(&self) -> std::slice::Iter<'_, T>;
        fn par_chunks(&self, n: usize) -> std::slice::Chunks<'_, T>;
    }

    impl<T> ParSlice<T> for [T] {
        fn par_iter(&self) -> std::slice::Iter<'_, T> {
            self.iter()
        }
        fn par_chunks(&self, n: usize) -> std::slice::Chunks<'_, T> {
            self.chunks(n)
        }
    }

    pub(crate) trait ParSliceMut<T> {
        fn par_iter_mut(&mut self) -> std::slice::IterMut<'_, T>;
        fn par_chunks_mut(&mut self, n: usize) -> std::slice::ChunksMut<'_, T>;
    }

    impl<T> ParSliceMut<T> for [T] {
        fn par_iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
            self.iter_mut()
        }
        fn par_chunks_mut(&mut self, n: usize) -> std::slice::ChunksMut<'_, T> {
            self.chunks_mut(n)
        }
    }

    pub(crate) trait IntoParIter: IntoIterator + Sized {
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }

    impl<I: IntoIterator> IntoParIter for I {}

    /// rayon's order-keeping searches, which a sequential scan already is.
    pub(crate) trait FirstOf: Iterator + Sized {
        fn find_first(mut self, p: impl FnMut(&Self::Item) -> bool) -> Option<Self::Item> {
            self.find(p)
        }
        fn find_map_first<B>(mut self, f: impl FnMut(Self::Item) -> Option<B>) -> Option<B> {
            self.find_map(f)
        }
    }

    impl<I: Iterator> FirstOf for I {}
}
