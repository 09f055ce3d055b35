/**
 * Python's builtin names (3.x, with the few Python 2 ones old code still calls). A call of one
 * (`len(x)`, `print()`, `isinstance(x, T)`, `ValueError("...")`) is no call site: it cannot reach
 * repository code, and counting it would drown the share of calls resolved in calls no resolver
 * could miss. A module name of the same spelling shadows it, as in Python.
 */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set(
  (
    'abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex copyright ' +
    'credits delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals hasattr hash help ' +
    'hex id input int isinstance issubclass iter len license list locals map max memoryview min next object oct open ord pow ' +
    'print property quit range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip ' +
    '__import__ __build_class__ __name__ __file__ __doc__ __package__ __spec__ __loader__ __builtins__ __debug__ __path__ ' +
    'True False None NotImplemented Ellipsis ' +
    'BaseException BaseExceptionGroup Exception ExceptionGroup ArithmeticError AssertionError AttributeError BlockingIOError ' +
    'BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError ' +
    'ConnectionResetError DeprecationWarning EOFError EncodingWarning EnvironmentError FileExistsError FileNotFoundError ' +
    'FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError ' +
    'InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError ' +
    'NotADirectoryError NotImplementedError OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError ' +
    'RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError ' +
    'SyntaxWarning SystemError SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError ' +
    'UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError ' +
    'WindowsError basestring unicode long xrange raw_input reduce unichr execfile cmp buffer apply intern coerce file reload'
  ).split(' '),
);

/** Builtins whose call makes a value of a builtin type (`dict()`, `str(x)`): its attributes are Python's own methods. */
export const BUILTIN_TYPES: ReadonlySet<string> = new Set(
  'bool bytearray bytes complex dict float frozenset int list memoryview object range set slice str tuple type enumerate zip map filter reversed sorted open iter'.split(' '),
);

/**
 * Methods of the builtin types (str, bytes, list, dict, set, files). A call of one of these names
 * on a value of unknown type is most likely Python's own, so it is never tied to a repository
 * method by name alone.
 */
export const BUILTIN_METHOD_NAMES: ReadonlySet<string> = new Set(
  (
    'append extend insert remove pop index count sort reverse copy clear get items keys values update setdefault popitem ' +
    'fromkeys add discard union intersection difference symmetric_difference issubset issuperset isdisjoint join split ' +
    'rsplit splitlines strip lstrip rstrip replace format format_map startswith endswith lower upper casefold title ' +
    'capitalize swapcase find rfind rindex partition rpartition encode decode zfill ljust rjust center expandtabs isdigit ' +
    'isalpha isalnum isspace islower isupper isnumeric isdecimal isidentifier isprintable istitle removeprefix removesuffix ' +
    'translate maketrans hex read write readline readlines writelines close flush seek tell truncate fileno isatty ' +
    'appendleft popleft extendleft rotate most_common elements subtract'
  ).split(' '),
);

/** Modules whose names only describe types: an annotation from them says nothing of which package's code a value runs. */
export const TYPING_MODULES: ReadonlySet<string> = new Set(['typing', 'typing_extensions', 'collections']);

/** Names of those modules that annotate Python's own containers (`List[Tool]`, `Dict[str, Tool]`, `collections.deque`). */
export const TYPING_CONTAINERS: ReadonlySet<string> = new Set(
  ('List Dict Set FrozenSet Tuple Sequence MutableSequence Mapping MutableMapping Iterable Iterator Collection Deque DefaultDict ' +
    'OrderedDict Counter ChainMap AbstractSet MutableSet Generator AsyncIterator AsyncIterable AsyncGenerator Text AnyStr ' +
    'deque defaultdict').split(' '),
);

/** Methods that change their receiver in place: `self.history.append(m)` writes `history`. */
export const MUTATING_METHODS: ReadonlySet<string> = new Set(
  'append extend insert pop clear update setdefault remove add discard popitem sort reverse appendleft popleft extendleft rotate'.split(' '),
);

/**
 * Calls whose result never changes in place: a module variable holding one is a constant, not
 * state (`MUTATING = frozenset({...})`, `T = TypeVar("T")`, `PATTERN = re.compile(...)`).
 */
export const IMMUTABLE_RESULTS: ReadonlySet<string> = new Set(
  'frozenset tuple str int float bool bytes complex range TypeVar ParamSpec TypeVarTuple NewType namedtuple NamedTuple compile Path PurePath getenv'.split(' '),
);
