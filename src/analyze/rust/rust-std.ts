/**
 * What Rust and its standard library bring without the repository: names no call of which can
 * reach repository code. Counting such calls as call sites would drown the share of calls resolved
 * in calls no resolver could miss, as Python's builtins would.
 */

const words = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));

/** The standard library's macros: an invocation of one is no call site (unless the crate defines a macro of the name). */
export const BUILTIN_MACROS = words(`
  println print eprintln eprint format format_args write writeln vec panic assert assert_eq assert_ne debug_assert
  debug_assert_eq debug_assert_ne todo unimplemented unreachable matches dbg concat stringify include include_str
  include_bytes env option_env cfg line column file module_path compile_error thread_local try addr_of addr_of_mut
  const_format_args trace_macros log_syntax concat_idents is_x86_feature_detected
`);

/** Macros whose value is a `String` or a `Vec`: the methods called on it are std's own. */
export const VALUE_MACROS = words('format vec concat stringify include_str env');

/** Crates of the toolchain itself: paths through them are std's, reported as the external crate they name. */
export const STD_CRATES = words('std core alloc proc_macro test');

/**
 * The names of the std prelude (Rust 2021): a path starting with one reaches std, and calling
 * one (`Some(x)`, `Vec::new()`, `drop(x)`, `String::from(s)`) is no call site.
 */
export const PRELUDE_NAMES = words(`
  Option Some None Result Ok Err Vec String Box ToString ToOwned Clone Copy Default Drop Eq PartialEq Ord PartialOrd
  Fn FnMut FnOnce From Into TryFrom TryInto Iterator IntoIterator Extend DoubleEndedIterator ExactSizeIterator AsRef AsMut
  Send Sync Sized Unpin Debug drop std core alloc FromIterator bool char str u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128
  isize f32 f64 Self
`);

/**
 * Types whose value the methods of see through to what they hold: `Arc<Session>` runs Session's
 * methods, `MutexGuard<T>` is a T. Wherever the name comes from (`std::sync::Arc`, a crate's
 * re-export): these names are too standard for a repository to mean something else by them.
 */
export const TRANSPARENT_TYPES = words(`
  Box Arc Rc Cow Pin ManuallyDrop Ref RefMut MutexGuard RwLockReadGuard RwLockWriteGuard MappedMutexGuard
  OwnedMutexGuard Lazy LazyLock LazyCell Weak AssertUnwindSafe Reverse Wrapping Saturating
`);

/** Containers and cells of std (and their common crate twins): a value of one is std's, what it holds is its element. */
export const WRAPPER_TYPES = words(`
  Option Result Vec VecDeque LinkedList BinaryHeap HashMap BTreeMap HashSet BTreeSet IndexMap IndexSet DashMap
  Mutex RwLock RefCell Cell OnceLock OnceCell UnsafeCell Sender Receiver SyncSender UnboundedSender UnboundedReceiver
  JoinHandle Iter IterMut IntoIter Peekable
`);

/** Maps: their element (what `get`, `values` and indexing give) is their second type argument. */
export const MAP_TYPES = words('HashMap BTreeMap IndexMap DashMap');

/** Cells and locks whose content a borrow hands out for writing: a static of such a type is state by declaration. */
export const INTERIOR_MUTABLE = /\b(?:Mutex|RwLock|RefCell|Cell|UnsafeCell|OnceLock|OnceCell|Atomic[A-Z]\w*)\b/;

/** Methods that give what an Option or a Result holds. */
export const UNWRAP_METHODS = words('unwrap expect unwrap_or unwrap_or_else unwrap_or_default unwrap_unchecked get_or_insert_with get_or_insert');

/** Methods of an Option or a Result that give one of the same kind. */
export const SAME_OPTION_METHODS = words('as_ref as_mut as_deref as_deref_mut take clone cloned copied or or_else filter inspect replace');

/** Methods of a lock or a cell that hand out its content (`lock` wrapped in a Result, as std's is). */
export const LOCK_METHODS = words('lock try_lock blocking_lock read write try_read try_write borrow borrow_mut try_borrow try_borrow_mut get_mut get_or_init');

/** Methods of a container that give one of its elements, maybe (as an Option). */
export const ELEMENT_METHODS = words(`
  get get_mut first last first_mut last_mut pop pop_front pop_back front back front_mut back_mut remove swap_remove
`);

/** Methods of a container or iterator that give an iterator over the same elements. */
export const ITERATOR_METHODS = words(`
  iter iter_mut into_iter values values_mut drain filter rev skip take skip_while take_while chain cycle peekable
  step_by cloned copied inspect fuse
`);

/** Methods of an iterator that give one of its elements, maybe. */
export const ITERATOR_ELEMENT_METHODS = words('next next_back find last nth min max min_by_key max_by_key min_by max_by peek');

/** `map.entry(k)` and what its `or_insert` family gives: the map's element, to change in place. */
export const ENTRY_VALUE_METHODS = words('or_insert or_insert_with or_default or_insert_with_key');

/**
 * Methods whose result is a handle on what the receiver holds, to change it: state written
 * through the result is the receiver's (`self.state.lock().unwrap().push(x)` writes `state`).
 */
export const BORROWING_METHODS = words(`
  lock try_lock blocking_lock write try_write borrow_mut try_borrow_mut get_mut first_mut last_mut front_mut back_mut
  iter_mut values_mut as_mut as_deref_mut entry or_insert or_insert_with or_default or_insert_with_key
  get_or_insert_with get_or_insert get_or_init deref_mut unwrap expect unwrap_or_default
`);

/** Adapters whose closure gets one element at a time: its first parameter is an element of the receiver (an Option's value, for an Option). */
export const ELEMENT_CLOSURE_METHODS = words(`
  map for_each filter filter_map flat_map any all find find_map position inspect take_while skip_while map_while
  and_then map_or map_or_else is_some_and is_ok_and retain sort_by_key partition max_by_key min_by_key try_for_each
`);

/** Methods that change their receiver in place: `self.history.push(m)` writes `history`. */
export const MUTATING_METHODS = words(`
  push push_str push_back push_front pop pop_back pop_front insert remove clear extend extend_from_slice append truncate
  retain retain_mut drain sort sort_by sort_by_key sort_unstable dedup dedup_by_key entry swap_remove split_off resize
  reverse fill set replace take swap store fetch_add fetch_sub fetch_or fetch_and fetch_xor fetch_max fetch_min
  fetch_update compare_exchange compare_exchange_weak get_or_init get_or_insert_with insert_str reserve shrink_to_fit
`);

/**
 * Methods of std's types (strings, numbers, collections, options, iterators, paths, processes,
 * I/O). A call of one on a value whose type is not known is most likely std's own: it is no call
 * site unless the repository declares a method of the name, and then it stays unresolved rather
 * than being tied to that method by name alone.
 */
export const STD_METHOD_NAMES = words(`
  clone clone_from to_string to_owned into from try_into try_from as_str as_bytes as_slice as_ref as_mut as_ptr borrow
  borrow_mut deref deref_mut unwrap expect unwrap_or unwrap_or_else unwrap_or_default unwrap_err expect_err ok err ok_or
  ok_or_else map map_err and_then or_else or and xor filter is_some is_none is_ok is_err is_some_and is_ok_and
  map_or map_or_else iter iter_mut into_iter collect len is_empty push push_str pop insert remove get get_mut contains
  contains_key extend clear drain retain sort sort_by sort_by_key sort_unstable dedup join split splitn rsplit
  split_once rsplit_once split_whitespace trim trim_start trim_end trim_matches strip_prefix strip_suffix starts_with
  ends_with replace replacen lines chars bytes char_indices parse to_lowercase to_uppercase to_ascii_lowercase
  to_ascii_uppercase eq_ignore_ascii_case format filter_map find find_map any all fold count sum product max min
  max_by min_by max_by_key min_by_key rev enumerate zip skip take chain next nth first last keys values values_mut
  entry or_insert or_insert_with or_default and_modify lock try_lock read write take replace swap load store fetch_add
  fetch_sub to_vec cloned copied flatten flat_map for_each inspect position peekable peek windows chunks concat
  as_deref as_deref_mut get_or_insert_with get_or_init set then then_some nth step_by truncate split_off append
  with_capacity capacity reserve shrink_to_fit to_path_buf display exists is_file is_dir with_extension file_name
  file_stem extension parent canonicalize components elapsed duration_since as_secs as_millis as_secs_f64 as_nanos
  checked_add checked_sub checked_mul saturating_add saturating_sub wrapping_add pow abs signum min max clamp wait
  wait_with_output try_wait kill id stdout stderr stdin output status arg args env envs current_dir spawn success code
  send recv try_recv recv_timeout read_to_string read_to_end read_line write_all write_fmt flush eq ne cmp partial_cmp
  hash fmt default drop into_inner into_boxed_slice into_bytes to_str to_string_lossy is_ascii is_alphabetic is_numeric
  is_alphanumeric is_whitespace is_digit to_digit len_utf8 as_u8 truncate sort_unstable_by binary_search
  contains_key remove_entry get_key_value range split_at split_first split_last iter_mut swap_remove extend_from_slice
  resize fill rotate_left rotate_right repeat matches match_indices find_iter captures is_match upgrade downgrade
  strong_count ptr_eq now duration from_secs from_millis sleep as_secs_f32 subsec_millis to_le_bytes to_be_bytes
  from_le_bytes from_be_bytes retain_mut try_for_each last_mut first_mut partition unzip rposition skip_while
  take_while map_while scan fuse cycle
`);
