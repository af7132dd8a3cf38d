import Foundation
import Support

/// Bad input to a command: the message names the problem and the valid choices.
package struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, in one line, with the valid choices.
  package var message: String
  /// The command's name, for the line printed.
  package var command: String

  /// An error that says `message`; the syntax parsing fills `command` in when it is left empty.
  package init(message: String, command: String = "") {
    self.message = message
    self.command = command
  }

  /// The one line printed on standard error.
  package var description: String { CommandIO.usageLine(command, message) }
}

/// One option of a command: the one place its name, its value, its help and its handling are
/// written. `Parsed` is what the options given so far ask for.
package struct CommandOption<Parsed>: Sendable {
  /// Its name, as given: "--format".
  package let name: String
  /// Another spelling, "-h" for `--help`; the valid options that errors list leave it out.
  package let alias: String?
  /// What `--help` calls its value, "format"; `nil` for a flag, which takes none.
  package let valueName: String?
  /// What it does, for `--help`: one paragraph, wrapped when printed.
  package let help: String
  /// What it does to the options parsed so far.
  let handling: Handling

  /// How `--help` shows it: "--format <format>", "-h, --help".
  package var label: String {
    (alias.map { "\($0), " } ?? "") + name + (valueName.map { " <\($0)>" } ?? "")
  }

  /// What an option does, given its value if it takes one.
  enum Handling {
    /// A flag: it takes no value.
    case flag(@Sendable (inout Parsed) throws(UsageError) -> Void)
    /// An option with a value; `valid` names the values it takes, for "needs a value".
    case value(valid: String, @Sendable (inout Parsed, String) throws(UsageError) -> Void)
  }

  /// A flag, which takes no value: `handle` is what it does to the options parsed so far.
  package static func flag(
    _ name: String, alias: String? = nil, help: String,
    _ handle: @escaping @Sendable (inout Parsed) throws(UsageError) -> Void
  ) -> Self {
    Self(name: name, alias: alias, valueName: nil, help: help, handling: .flag(handle))
  }

  /// An option with a value: `valid` names the values it takes, for an error, and `handle` is
  /// what it does with its value to the options parsed so far.
  package static func value(
    _ name: String, _ valueName: String, valid: String, help: String,
    _ handle: @escaping @Sendable (inout Parsed, String) throws(UsageError) -> Void
  ) -> Self {
    Self(
      name: name, alias: nil, valueName: valueName, help: help,
      handling: .value(valid: valid, handle))
  }
}

/// One of a command's modes, named by a word: its argument, the options it takes, its help,
/// and the option that spelled it once, still accepted.
package struct CommandWord<Parsed, Result>: Sendable {
  /// Its word: "bench". The first word of a syntax may be left out.
  package let name: String
  /// What `--help` calls its argument, "name"; `nil` for none.
  package let argumentName: String?
  /// Whether the argument may be left out.
  package let argumentIsOptional: Bool
  /// The valid values of its argument, for errors.
  package let argumentChoices: @Sendable () -> String
  /// The options it takes, by name.
  package let options: [String]
  /// The options among ``options`` it cannot do without, which USAGE shows without brackets.
  package let required: [String]
  /// What it does, for `--help`.
  package let help: String
  /// The spelling it had as an option, "--bench", still accepted anywhere in the arguments.
  package let oldSpelling: String?
  /// Makes the result from its argument and the options given.
  let make: @Sendable (_ argument: String?, _ options: Parsed) throws(UsageError) -> Result

  /// A word; `argument` is what `--help` calls its argument and its valid values, `nil` for
  /// none; `make` says so when one of the `required` options is missing.
  package init(
    _ name: String, argument: (name: String, choices: @Sendable () -> String)? = nil,
    argumentIsOptional: Bool = false, options: [String] = [], required: [String] = [],
    help: String,
    oldSpelling: String? = nil,
    make: @escaping @Sendable (_ argument: String?, _ options: Parsed) throws(UsageError) -> Result
  ) {
    self.name = name
    self.argumentName = argument?.name
    let noChoices: @Sendable () -> String = { "" }
    self.argumentChoices = argument?.choices ?? noChoices
    self.argumentIsOptional = argumentIsOptional
    self.options = options
    self.required = required
    self.help = help
    self.oldSpelling = oldSpelling
    self.make = make
  }
}

/// A command's syntax: its options and its words, each written once, from which the parser and
/// the USAGE, COMMANDS and OPTIONS parts of `--help` are made.
///
/// A command line is a word, its argument and options (`bench --quick`); the first word may be
/// left out. A word's old spelling as an option (`--bench`) is accepted anywhere. `--help`,
/// `-h` anywhere, or the word `help` first, asks for the help; `--version`, alone, for the
/// version, in a syntax whose options have it.
///
/// One set of rules for every command: a first argument spelled as a word that is no word, and
/// that the first word does not take as its argument, is an unknown command (`workshop hnt 3`);
/// a flag given twice, or with a value (`--help=`), is refused.
package struct CommandSyntax<Parsed: Sendable, Result: Sendable>: Sendable {
  /// The command's name, for errors and USAGE.
  package let command: String
  /// Every option, in the order `--help` lists them.
  package let options: [CommandOption<Parsed>]
  /// Every word, in the order `--help` lists them; the first is the one run when none is
  /// given.
  package let words: [CommandWord<Parsed, Result>]
  /// What no option has asked for yet.
  package let initial: Parsed

  package init(
    command: String, options: [CommandOption<Parsed>], words: [CommandWord<Parsed, Result>],
    initial: Parsed
  ) {
    self.command = command
    self.options = options
    self.words = words
    self.initial = initial
  }

  /// What a command line asks for.
  package enum Request: Sendable {
    case help
    case version
    /// What a word made of its argument and options.
    case run(Result)
  }

  /// Parses the arguments, without the program name.
  ///
  /// Options take their value as the next argument or after `=` (`--format=json`). Throws
  /// ``UsageError`` naming the first problem found, and the valid choices.
  package func parse(_ arguments: [String]) throws(UsageError) -> Request {
    do {
      return try parseUnnamed(arguments)
    } catch {
      throw UsageError(message: error.message, command: command)
    }
  }

  /// What `arguments` ask for, `help` for `--help` and `--version`; `nil` once the usage error
  /// is printed on `io`'s standard error, for the command to return ``ExitCode/usage``.
  package func request(_ arguments: [String], help: Result, io: CommandIO) -> Result? {
    switch io.parseReportingUsage(try parse(arguments)) {
    case nil: nil
    case .help, .version: help
    case .run(let asked): asked
    }
  }

  private func parseUnnamed(_ arguments: [String]) throws(UsageError) -> Request {
    if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) || arguments.first == "help" {
      return .help
    }
    if options.contains(where: { $0.name == "--version" }), arguments.contains("--version") {
      guard arguments.count == 1 else {
        throw UsageError(message: "--version takes nothing else")
      }
      return .version
    }
    var remaining = arguments[...]
    // The word: the first argument that is neither an option nor an option's value, or a
    // word's old spelling anywhere.
    var word: CommandWord<Parsed, Result>?
    var spelledAs = ""
    if let index = remaining.indices.first(where: { index in
      !isOption(remaining[index])
        && (index == remaining.startIndex || !takesValue(remaining[index - 1]))
    }) {
      if let named = words.first(where: { $0.name == remaining[index] }) {
        word = named
        spelledAs = named.name
        remaining.remove(at: index)
      } else if words.count > 1, words[0].argumentName == nil {
        throw UsageError(
          message: "unknown command '\(remaining[index])' (valid: "
            + words.map(\.name).joined(separator: ", ") + ")")
      }
    }
    var argument: String?
    var rest: [String] = []
    while let next = remaining.popFirst() {
      let flag = String(next.prefix { $0 != "=" })
      guard let old = words.first(where: { $0.oldSpelling == flag }) else {
        rest.append(next)
        continue
      }
      if let word {
        throw UsageError(
          message: word.name == old.name
            ? "\(flag) given more than once" : "\(spelledAs) and \(flag) cannot be combined")
      }
      word = old
      spelledAs = flag
      if old.argumentName == nil {
        if flag != next { throw UsageError(message: "\(flag) takes no value") }
      } else if flag != next {
        argument = String(next.dropFirst(flag.count + 1))
      } else if let value = remaining.first, !isOption(value) {
        argument = remaining.removeFirst()
      } else if !old.argumentIsOptional {
        throw UsageError(message: "\(flag) needs a value (valid: \(old.argumentChoices()))")
      }
    }
    let chosen = word ?? words[0]
    if spelledAs.isEmpty { spelledAs = chosen.name }
    // Its argument, if it takes one that the old spelling did not give: the first that is
    // neither an option nor an option's value.
    if chosen.argumentName != nil && argument == nil {
      if let index = rest.indices.first(where: { index in
        !isOption(rest[index]) && (index == 0 || !takesValue(rest[index - 1]))
      }) {
        argument = rest.remove(at: index)
        if word == nil, let argument { try checkIsNotAMisspelledWord(argument, for: chosen) }
      } else if !chosen.argumentIsOptional {
        throw UsageError(
          message: "\(spelledAs) needs a \(chosen.argumentName ?? "value") "
            + "(valid: \(chosen.argumentChoices()))")
      }
    }
    let parsed = try parseOptions(rest, for: chosen, spelledAs: word == nil ? nil : spelledAs)
    return .run(try chosen.make(argument, parsed))
  }

  /// Throws "unknown command" when `argument`, given to the first word because no word was
  /// named, looks like a word (it starts with a letter) and that word does not take it: `hnt`
  /// in `workshop hnt 3` is a misspelled `hint`, not a bad exercise number.
  ///
  /// Whether the word takes it is what the word makes of it with no options; a number, or
  /// anything else that is not spelled as a word, is left for the word to reject in its own
  /// terms ("no exercise '11'").
  private func checkIsNotAMisspelledWord(
    _ argument: String, for word: CommandWord<Parsed, Result>
  ) throws(UsageError) {
    guard argument.first?.isLetter == true else { return }
    do {
      _ = try word.make(argument, initial)
    } catch {
      throw UsageError(
        message: "unknown command '\(argument)' (valid: "
          + words.map(\.name).joined(separator: ", ")
          + "; or a \(word.argumentName ?? "value") for \(word.name): \(word.argumentChoices()))")
    }
  }

  /// The options in `arguments`, each checked to be one that `word` takes; `spelledAs` is how
  /// the word was given, `nil` when it was left out.
  private func parseOptions(
    _ arguments: [String], for word: CommandWord<Parsed, Result>, spelledAs: String?
  ) throws(UsageError) -> Parsed {
    var parsed = initial
    var remaining = arguments[...]
    let valid = word.options.isEmpty ? "none" : word.options.joined(separator: ", ")
    // The flags given so far: one given twice is an error, as for every option whose value
    // cannot be given twice, so that no repetition is silently accepted.
    var flagsGiven: Set<String> = []
    while let argument = remaining.popFirst() {
      var flag = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        flag = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = options.first(where: { $0.name == flag || $0.alias == flag }) else {
        if isOption(argument) {
          throw UsageError(message: "unknown option '\(flag)' (valid for \(word.name): \(valid))")
        }
        throw UsageError(
          message: "unexpected argument '\(argument)' (valid for \(word.name): \(valid))")
      }
      if case .flag = option.handling, inlineValue != nil {
        throw UsageError(message: "\(flag) takes no value")
      }
      guard word.options.contains(option.name) else {
        guard let spelledAs else {
          let takers = words.filter { $0.options.contains(option.name) }.map(\.name)
          throw UsageError(
            message: "\(flag) goes with "
              + (takers.isEmpty ? "no command" : takers.joined(separator: " or "))
              + " (valid without a command: \(valid))")
        }
        throw UsageError(
          message: "\(spelledAs) and \(flag) cannot be combined (valid for \(word.name): \(valid))"
        )
      }
      switch option.handling {
      case .flag(let handle):
        guard flagsGiven.insert(option.name).inserted else {
          throw UsageError(message: "\(option.name) given more than once")
        }
        try handle(&parsed)
      case .value(let validValues, let handle):
        if let inlineValue {
          try handle(&parsed, inlineValue)
        } else if let next = remaining.first, !next.hasPrefix("--") {
          remaining.removeFirst()
          try handle(&parsed, next)
        } else {
          throw UsageError(message: "\(flag) needs a value (valid: \(validValues))")
        }
      }
    }
    return parsed
  }

  /// Whether `argument` is spelled as an option: a dash and more, and not a number ("-1" is an
  /// argument, left for the word to name).
  private func isOption(_ argument: String) -> Bool {
    argument.hasPrefix("-") && argument.count > 1 && Int(argument) == nil
  }

  /// Whether `argument` is an option, or a word's old spelling, that takes the next argument
  /// as its value.
  private func takesValue(_ argument: String) -> Bool {
    if words.contains(where: { $0.oldSpelling == argument && $0.argumentName != nil }) {
      return true
    }
    guard let option = options.first(where: { $0.name == argument }) else { return false }
    if case .value = option.handling { return true }
    return false
  }

  // MARK: - Help

  /// The USAGE part of `--help`: one line a word, wrapped; the first word in brackets, since it
  /// may be left out.
  package var usage: String {
    words.enumerated().flatMap { index, word in
      let argument = word.argumentName.map { word.argumentIsOptional ? "[<\($0)>]" : "<\($0)>" }
      let options = word.options.compactMap { name -> String? in
        guard let option = self.options.first(where: { $0.name == name }) else { return nil }
        let label = name + (option.valueName.map { " <\($0)>" } ?? "")
        return word.required.contains(name) ? label : "[\(label)]"
      }
      let words = [command, index == 0 ? "[\(word.name)]" : word.name]
      let line = (words + [argument].compactMap { $0 } + options).joined(separator: " ")
      return wrap(
        line, firstPrefix: index == 0 ? "USAGE: " : "       ",
        prefix: String(repeating: " ", count: 8 + command.count), width: 90)
    }.map { $0 + "\n" }.joined()
  }

  /// The COMMANDS part of `--help`.
  package var wordsHelp: String { columns(words.map { ($0.name, $0.help) }) }

  /// The OPTIONS part of `--help`; the row of `--help` says that the word `help`, first, asks
  /// for it too, as the parser accepts.
  package var optionsHelp: String {
    columns(
      options.map { option in
        (option.label, option.name == "--help" ? option.help + Self.helpWord : option.help)
      })
  }

  /// What the row of `--help` adds: the word `help` asks for the help too.
  package static var helpWord: String { "; so does help as the first word" }

  /// The words' old spellings, as `--help` lists them; empty when none has one.
  package var oldSpellingsHelp: String {
    let spellings = words.compactMap { word in
      word.oldSpelling.map { $0 + (word.argumentName.map { " <\($0)>" } ?? "") }
    }
    guard !spellings.isEmpty else { return "" }
    return wrap(
      "The old spellings, each command as an option, still work: "
        + spellings.joined(separator: ", ") + ".",
      firstPrefix: "", prefix: "", width: 90
    ).map { $0 + "\n" }.joined()
  }

  /// Labels, then their help wrapped beside them.
  private func columns(_ rows: [(label: String, help: String)]) -> String {
    let width = (rows.map(\.label.count).max() ?? 0) + 3
    return rows.flatMap { row in
      wrap(
        row.help,
        firstPrefix: "  " + row.label.padded(to: width),
        prefix: String(repeating: " ", count: width + 2), width: 90)
    }.map { $0 + "\n" }.joined()
  }
}
