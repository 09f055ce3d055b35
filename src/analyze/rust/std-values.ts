import {
  BORROWING_METHODS, ELEMENT_METHODS, ENTRY_VALUE_METHODS, ITERATOR_ELEMENT_METHODS, ITERATOR_METHODS, LOCK_METHODS, SAME_OPTION_METHODS, UNWRAP_METHODS,
} from './rust-std.js';
import { originOf, STD, withOrigin, type Value } from './rust-values.js';

const OPTIONS = new Set(['Option', 'Result']);
const LOCKS = new Set(['Mutex', 'RwLock']);
const CELLS = new Set(['RefCell', 'Cell', 'UnsafeCell', 'OnceLock', 'OnceCell']);
const ITERATORS = new Set(['Iter', 'IterMut', 'IntoIter', 'Peekable']);

/**
 * What a method of std's types gives, as far as it matters for whose code runs next and which
 * state changes: what an option or a lock holds, an element of a container or iterator, the same
 * option again. `holder` is the field or static the receiver is (or is a handle on): a borrowing
 * method's result is a handle on it too. Anything else is a value of std's, no handle on anything.
 */
export function stdMethodResult(receiver: Extract<Value, { kind: 'std' }>, name: string, holder: string | undefined): Value {
  const wrapper = receiver.wrapper ?? '';
  const element = receiver.element ?? STD;
  const handle = BORROWING_METHODS.has(name) ? holder : undefined;
  if (OPTIONS.has(wrapper)) {
    if (UNWRAP_METHODS.has(name)) return withOrigin(element, handle);
    if (SAME_OPTION_METHODS.has(name)) return handle === undefined ? withoutOrigin(receiver) : withOrigin(receiver, handle);
    return STD;
  }
  if (LOCKS.has(wrapper) && LOCK_METHODS.has(name)) {
    // std's `lock()` gives a LockResult of the guard; what holds the guard is a handle on the lock's holder.
    const guard = withOrigin(element, handle);
    return name === 'get_mut' ? guard : { kind: 'std', wrapper: 'Result', element: guard, ...(handle !== undefined ? { origin: handle } : {}) };
  }
  if (CELLS.has(wrapper)) {
    if (LOCK_METHODS.has(name)) return withOrigin(element, handle);
    if (name === 'get') return { kind: 'std', wrapper: 'Option', element };
    return STD;
  }
  if (wrapper === 'Entry') return ENTRY_VALUE_METHODS.has(name) ? withOrigin(element, handle) : STD;
  if (ITERATORS.has(wrapper)) {
    if (ITERATOR_METHODS.has(name)) return iterator(element, handle);
    if (ITERATOR_ELEMENT_METHODS.has(name)) return { kind: 'std', wrapper: 'Option', element };
    return STD;
  }
  if (receiver.element !== undefined) {
    if (name === 'entry') return { kind: 'std', wrapper: 'Entry', element, ...(handle !== undefined ? { origin: handle } : {}) };
    if (ELEMENT_METHODS.has(name)) return { kind: 'std', wrapper: 'Option', element: withOrigin(element, handle) };
    if (ITERATOR_METHODS.has(name)) return iterator(element, handle);
  }
  return STD;
}

function iterator(element: Value, handle: string | undefined): Value {
  return { kind: 'std', wrapper: 'Iter', element: withOrigin(element, handle), ...(handle !== undefined ? { origin: handle } : {}) };
}

function withoutOrigin(value: Extract<Value, { kind: 'std' }>): Value {
  if (value.origin === undefined) return value;
  const { origin: _origin, ...rest } = value;
  return rest;
}

/** What indexing or iterating a value gives: a container's or iterator's element, a handle on the same holder. */
export function elementOf(value: Value): Value {
  if (value.kind !== 'std' || value.element === undefined) return value.kind === 'std' ? STD : { kind: 'dynamic' };
  return withOrigin(value.element, originOf(value) ?? originOf(value.element));
}

/** What `?` gives: the value inside an Option or a Result; anything else is taken as it is. */
export function tryOf(value: Value): Value {
  if (value.kind === 'std' && OPTIONS.has(value.wrapper ?? '')) return withOrigin(value.element ?? STD, originOf(value) ?? originOf(value.element ?? STD));
  return value;
}

/** An Option or Result seen through, for a field or a method no option has (`guard.turns` where the guard came unwrapped by `.await`). */
export function throughOption(value: Value): Value | undefined {
  return value.kind === 'std' && OPTIONS.has(value.wrapper ?? '') && value.element !== undefined ? tryOf(value) : undefined;
}
